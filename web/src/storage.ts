/** This browser's localStorage, or null where it cannot be used (a private mode refusing it). */
export const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};
