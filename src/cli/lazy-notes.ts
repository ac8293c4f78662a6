import { ToolError } from '../core/errors.js';
import type { NotesStore } from '../core/notes.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A notes store the server closes on shutdown. */
export type ClosableNotesStore = NotesStore & { close(): void | Promise<void> };

/** Opens the notes of the workspace at `workspacePath`; a failure should say what to fix. */
export type NotesFactory = (workspacePath: string) => Promise<ClosableNotesStore>;

export interface LazyNotesOptions {
  readonly env?: Env;
  /** Where the notes are kept; the workspace's SQLite file under the data folder by default. */
  readonly open?: NotesFactory;
}

/** The workspace's SQLite notes file, under `MESHLENS_DATA_DIR` (or the XDG data folder). */
export const sqliteNotes =
  (env: Env = process.env): NotesFactory =>
  async (workspacePath) => {
    const [{ SqliteNotesStore }, { notesDbPath, notesWorkspaceId }] = await Promise.all([
      import('../store/notes-db.js'),
      import('../store/notes-paths.js'),
    ]);
    const file = notesDbPath(workspacePath, env);
    try {
      return SqliteNotesStore.open({ path: file, workspace: notesWorkspaceId(workspacePath) });
    } catch (error) {
      throw new ToolError(
        'unavailable',
        `Cannot open the notes file ${file}: ${error instanceof Error ? error.message : String(error)}. ` +
          'Set MESHLENS_DATA_DIR to a folder meshlens may write, then retry.',
      );
    }
  };

/**
 * The workspace's notes, opened on the first memory call: SQLite is a native module and PostgreSQL a client
 * library, and a session that never asks for a note loads neither nor creates a file.
 */
export class LazyNotes {
  private opening: Promise<ClosableNotesStore> | undefined;
  private readonly workspacePath: string;
  private readonly factory: NotesFactory;

  constructor(workspacePath: string, options: LazyNotesOptions = {}) {
    this.workspacePath = workspacePath;
    this.factory = options.open ?? sqliteNotes(options.env);
  }

  readonly open = (): Promise<NotesStore> => {
    this.opening ??= this.factory(this.workspacePath);
    // A failed open is retried by the next call rather than remembered.
    this.opening.catch(() => (this.opening = undefined));
    return this.opening;
  };

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    await (await opening?.catch(() => undefined))?.close();
  }
}
