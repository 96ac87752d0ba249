/**
 * What the caller calls each input. Errors from src/ name the input they are about by this label
 * (a CLI passes its flags, `--forward-to`; a program may pass nothing and read the option keys),
 * so no caller catches an error only to say it again in its own words.
 */
export type Labels<K extends string> = Partial<Record<K, string>>;

export function labelOf<K extends string>(labels: Labels<K> | undefined, key: K): string {
  return labels?.[key] ?? key;
}
