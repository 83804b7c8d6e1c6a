// Runs on the stage's refresh schedule and enqueues one refresh per healthy item on the item-refresh
// queue. Placeholder: the scheduled refresh issue fills it in.
export const handler = async (): Promise<{ enqueued: number }> => ({ enqueued: 0 });
