export const SUBSCRIPTION_DAYS = { monthly: 30, yearly: 365 } as const;
export const CUSTOM_DAYS_MAX = 3650;
