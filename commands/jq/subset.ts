/** What --jq understands: said by the root's --help and by every --jq error (kept apart from the engine so the root stays light). */
export const JQ_SUBSET =
  'paths (.a.b, .[0], .[], .[1:3], .["k"], .a?, ..), |, ",", //, [ ], {id, k: .v}, ==, !=, <, >, and, or, + - * / %, ' +
  'if … then … else … end, "\\(.a)" strings, @csv, @tsv, length, keys, map, select, to_entries, join, has, sort_by, ' +
  'and other builtins without regular expressions or variables';
