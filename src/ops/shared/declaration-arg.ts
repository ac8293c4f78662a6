/**
 * Fields naming one declaration as `<path>:<name>` (or `<path>:<line>`), read by the shared symbol address;
 * its messages name the field the caller used.
 */
import { z } from 'zod';
import { ToolError } from '../../core/errors.js';
import type { SnapshotReader } from '../../index/reader.js';
import { addressedSymbol, type AddressedSymbol } from './symbol-address.js';

/** The argument type of a field naming a declaration as `<path>:<name>`. */
export const declarationString = () => z.string().min(3).max(512);

/** The declaration `value` names; `argument` is the field it came in, for the error messages. */
export function declarationNamed(snapshot: SnapshotReader, argument: string, value: string): AddressedSymbol {
  try {
    return addressedSymbol(snapshot, { symbol: value });
  } catch (error) {
    if (!(error instanceof ToolError) || argument === 'symbol') throw error;
    throw new ToolError(error.kind, error.message.replaceAll('`symbol`', `\`${argument}\``), error.payload);
  }
}
