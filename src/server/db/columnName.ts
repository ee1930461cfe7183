/** The database's column for a property of the code (`dailyLimitBytes` → `daily_limit_bytes`), as the plugin maps them. */
export const columnName = (property: string) => property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
