export const REDIS_PLACEHOLDER = 0;
