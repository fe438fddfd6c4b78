/**
 * The pass engine: prepare a run (`prepareRun`: everything checkable
 * before a run dir is written), start it (`startRun`) or continue it
 * (`runPhase`) — under the run lock, dispatch what is missing, park behind a
 * wake job, or decide and write the verdict — wait for it (`waitForRun`:
 * when to poll, when to run a pass itself, when to stop), and the rest of
 * what changes a run: the wake, the lock, cancel, a failed run's end, a
 * local pass stopped.
 *
 * @module
 */
