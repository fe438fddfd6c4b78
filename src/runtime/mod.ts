/**
 * The only code that touches `Deno.*` or `Bun.*`: spawning processes (in
 * their own session, killed as a group), signals and interrupts, stdout and
 * stderr, digests and random bytes, and how this program runs itself again.
 *
 * @module
 */
