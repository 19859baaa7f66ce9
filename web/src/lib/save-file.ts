/** Hands a file the app fetched to the browser's downloads. */
export function saveFile({ name, blob }: { name: string; blob: Blob }) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  URL.revokeObjectURL(url)
}
