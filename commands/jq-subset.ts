/** What --jq understands: said by the root's --help and by every --jq error (kept apart from jq.ts so the root stays light). */
export const JQ_SUBSET =
  'paths (.a.b, .[0], .[], .["k"], .a?), |, ",", ==, !=, select(…), length, keys, ( ), literals and "\\(.a)" strings';
