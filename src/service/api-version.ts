/** The API version the service speaks and svc and its emulator use: the date segment at the end of every base URL. */
export const API_VERSION = '2025-10-13';
