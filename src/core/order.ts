/** Code-unit order of two strings: the one total order every sorted output uses, independent of locale. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
