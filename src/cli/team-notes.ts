import type { TeamStore } from '../store/postgres/team-store.js';
import type { NotesFactory } from './lazy-notes.js';

/**
 * Notes in the PostgreSQL team store, under `tenant`. A server that serves no tenants keeps them under
 * `_local` (LOCAL_NOTES_TENANT), a name no key's tenant can take. The store is loaded on the first memory
 * call, like the SQLite one.
 */
export const teamNotes =
  (team: TeamStore, tenant?: string): NotesFactory =>
  async (workspacePath) => {
    const [{ LOCAL_NOTES_TENANT, PostgresNotesStore }, { notesWorkspaceId }] = await Promise.all([
      import('../store/postgres/notes-store.js'),
      import('../store/notes-paths.js'),
    ]);
    return new PostgresNotesStore(team.pool, {
      tenant: tenant ?? LOCAL_NOTES_TENANT,
      workspace: notesWorkspaceId(workspacePath),
    });
  };
