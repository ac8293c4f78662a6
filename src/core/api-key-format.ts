/**
 * The spelling of a meshlens API key, `ml_` and 48 hex digits (192 random bits), and of its prefix, `ml_` and
 * the first 8 digits: the part people see, and the part that finds its row. Shared by the store that makes
 * keys and the server that checks them.
 */
export const KEY_MARK = 'ml_';
export const KEY_BYTES = 24;
const PREFIX_DIGITS = 8;

const KEY_SHAPE = new RegExp(`^${KEY_MARK}[0-9a-f]{${KEY_BYTES * 2}}$`);
const PREFIX_SHAPE = new RegExp(`^${KEY_MARK}[0-9a-f]{${PREFIX_DIGITS}}$`);

/** Whether a token is spelled like a key. Saying a token is misspelt reveals nothing about which keys exist. */
export const hasKeyShape = (token: string): boolean => KEY_SHAPE.test(token);

export const hasPrefixShape = (text: string): boolean => PREFIX_SHAPE.test(text);

export const prefixOfKey = (key: string): string => key.slice(0, KEY_MARK.length + PREFIX_DIGITS);

export const KEY_SHAPE_TEXT = `"${KEY_MARK}" followed by ${KEY_BYTES * 2} hex digits`;
