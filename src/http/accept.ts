/** Whether a request's `Accept` asks for a page (a browser following a mailed link) rather than JSON. */
export const prefersHtml = (accept: string | undefined) => !!accept && accept.includes('text/html') && !/^\s*application\/json/.test(accept)
