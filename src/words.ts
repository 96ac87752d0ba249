/**
 * Words in the tool's sentences. "a" or "an" before a word put in a sentence: a credential type (`an SMS_OTP credential`,
 * `an OAUTH credential`), a noun (`an auth command`), an id kind (`an InternalAccount identifier`).
 * By sound, not spelling: a short all-capital word is read letter by letter (`an SMS`, `a USD`).
 */

/** Letters whose spoken name starts with a vowel sound: "ef", "aitch", "em", "ess"… */
const VOWEL_SOUND_LETTERS = 'AEFHILMNORSX';

export function withArticle(word: string): string {
  const first = word.split(/[_\s-]/)[0] ?? '';
  const spelled = first.length > 0 && first.length <= 3 && first === first.toUpperCase() && /^[A-Z]+$/.test(first);
  const vowel = spelled
    ? VOWEL_SOUND_LETTERS.includes(first[0]!)
    : /^[aeio]/i.test(word) || (/^u/i.test(word) && !/^u(ni|s[aeiu]|r[aeiou]|ma)/i.test(word));
  return `${vowel ? 'an' : 'a'} ${word}`;
}

/** "1 event", "3 events", "2 deliveries": a count with its noun in the right number. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
