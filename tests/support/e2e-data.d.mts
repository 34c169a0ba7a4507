export function e2eDataDir(port: number | string): string;
