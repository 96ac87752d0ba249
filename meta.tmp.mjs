import { build } from 'esbuild';
const r = await build({ entryPoints: [process.argv[2]], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true, outfile: '/tmp/x.cjs', external: ['@inquirer/prompts','ora'], supported: {'dynamic-import': false}, define: {'import.meta.url':'__u'}, plugins: [{name:'u', setup(b){ b.onResolve({filter:/^undici$/},()=>({path:'/work/wt-perf/.ci/undici-core.cjs'})) }}] });
const byPkg = {};
for (const [f, i] of Object.entries(r.metafile.inputs)) { const m = f.match(/node_modules\/((@[^/]+\/)?[^/]+)/); const k = m ? m[1] : f.split('/').slice(0,2).join('/'); byPkg[k] = (byPkg[k]??0) + i.bytes; }
console.log(Object.entries(byPkg).sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,v])=>`${(v/1024).toFixed(0).padStart(6)}K ${k}`).join('\n'));
