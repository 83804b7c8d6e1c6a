// Refreshes one item from its institution. Fed by the item-refresh FIFO queue (one message group per
// item, so refreshes of one item never overlap) and by the ItemRefresh state machine.
// Placeholder: the item refresh / transactions ingestion issue fills it in.
export const handler = async (_input: unknown): Promise<{ refreshed: boolean }> => ({ refreshed: false });
