import type { StoredSession } from './store.js'

/**
 * What a store's `all` hands back: express-session's MemoryStore gives an object keyed by session ID,
 * connect-redis an array of sessions each carrying its `id`. Both shapes are kept, filtered by ID.
 */
export type SessionListing = Record<string, StoredSession> | (StoredSession & { id?: unknown })[]

export function listedIds(listing: SessionListing | null | undefined): string[] {
  if (listing === null || listing === undefined) return []
  if (Array.isArray(listing))
    return listing.flatMap((session) => (typeof session?.id === 'string' ? [session.id] : []))
  return Object.keys(listing)
}

/** The listing without the IDs `keep` refuses, in the shape the store returned it. */
export async function filterListing(
  listing: SessionListing | null | undefined,
  keep: (id: string) => Promise<boolean>,
): Promise<SessionListing | null | undefined> {
  if (listing === null || listing === undefined) return listing
  if (Array.isArray(listing)) {
    const kept = await Promise.all(
      listing.map((session) => (typeof session?.id === 'string' ? keep(session.id) : Promise.resolve(true))),
    )
    return listing.filter((_, index) => kept[index])
  }
  const filtered: Record<string, StoredSession> = Object.create(null)
  for (const id of Object.keys(listing)) if (await keep(id)) filtered[id] = listing[id] as StoredSession
  return filtered
}
