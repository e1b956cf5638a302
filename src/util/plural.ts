// A count with its noun in the right number, for what people read: "1 row", "2 rows",
// "1 delivery", "3 deliveries" (never "row(s)").

/** `n` and `one` (1) or `many` (any other number; `one` + s unless given). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The verb that goes with a count: `were(n)` → "was" for 1, "were" otherwise. */
export const were = (n: number): string => (n === 1 ? 'was' : 'were');
/** `are(n)` → "is" for 1, "are" otherwise. */
export const are = (n: number): string => (n === 1 ? 'is' : 'are');
