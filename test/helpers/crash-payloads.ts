/** Unity's message for every null dereference: the same in every NullReferenceException, whatever threw it. */
export const NRE = 'NullReferenceException: Object reference not set to an instance of an object'

/** An auto-filed Unity error as the field SDKs send it: `[Error]` title, stack trace and recent logs. */
export const unityError = (file: string, fn: string, line: number, o: Record<string, unknown> = {}) => ({
  title: `[Error] ${NRE}`,
  description: `${NRE}\n\n--- Stack Trace ---\n  at ${fn} () [0x00012] in Assets/Scripts/${file}:${line}\n  at UnityEngine.Events.InvokableCall.Invoke () [0x00010] in <4b2e1c>:0\n\n--- Recent Logs ---\n[Log] Opened ${file}`,
  category: 'crash',
  ...o,
})
