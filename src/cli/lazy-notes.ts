import { ToolError } from '../core/errors.js';
import type { NotesStore } from '../core/notes.js';
import type { SqliteNotesStore } from '../store/notes-db.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The workspace's notes, opened on the first memory call: SQLite is a native module, and a session that never
 * asks for a note never loads it nor creates the file.
 */
export class LazyNotes {
  private opening: Promise<SqliteNotesStore> | undefined;
  private readonly workspacePath: string;
  private readonly env: Env;

  constructor(workspacePath: string, env: Env = process.env) {
    this.workspacePath = workspacePath;
    this.env = env;
  }

  readonly open = (): Promise<NotesStore> => {
    this.opening ??= Promise.all([import('../store/notes-db.js'), import('../store/notes-paths.js')]).then(
      ([{ SqliteNotesStore }, { notesDbPath, notesWorkspaceId }]) => {
        const file = notesDbPath(this.workspacePath, this.env);
        try {
          return SqliteNotesStore.open({ path: file, workspace: notesWorkspaceId(this.workspacePath) });
        } catch (error) {
          throw new ToolError(
            'unavailable',
            `Cannot open the notes file ${file}: ${error instanceof Error ? error.message : String(error)}. ` +
              'Set MESHLENS_DATA_DIR to a folder meshlens may write, then retry.',
          );
        }
      },
    );
    // A failed open is retried by the next call rather than remembered.
    this.opening.catch(() => (this.opening = undefined));
    return this.opening;
  };

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    (await opening?.catch(() => undefined))?.close();
  }
}
