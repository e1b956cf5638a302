/** Built on first use and kept: building zod schemas costs start-up time a command may not need. */
export function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
