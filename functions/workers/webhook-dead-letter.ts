// Records a webhook whose every attempt failed, so the dashboard shows it as dead-lettered.
// Placeholder: the webhooks issue fills it in.
export const handler = async (_input: unknown): Promise<{ recorded: boolean }> => ({ recorded: false });
