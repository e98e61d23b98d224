export const OTEL_PLACEHOLDER = 0;
