import type { AnyOperation } from '../core/operation.js';
import { adminRescan } from './admin/rescan.js';
import { adminStatus } from './admin/status.js';
import type { MeshServices } from './services.js';

/** Every operation meshlens offers; a new operation is one file plus one entry here. */
export const OPERATIONS: readonly AnyOperation<MeshServices>[] = [adminStatus, adminRescan];
