import type { RecordEntry } from './api/records'

export const kindLabel: Record<string, string> = { prontuario: 'Prontuário', sigiloso: 'Sigiloso' }
export const templateLabel: Record<string, string> = {
  anamnese: 'Anamnese',
  evolucao: 'Evolução',
  encerramento: 'Encerramento ou encaminhamento',
  livre: 'Livre',
}

/** An instant as 'dd/mm/aaaa HH:MM' in the browser's zone. */
export function instantText(iso: string): string {
  const d = new Date(iso)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`
}

/**
 * The signature line exactly as the server wrote it, a correction's reason,
 * and a supervisor's co-signature once signed (the record page and the
 * client's copy show the same lines).
 */
export function Signed({ entry }: { entry: RecordEntry }) {
  return (
    <div className="text-xs text-stone-600 dark:text-stone-400 print:text-stone-800">
      <p>{entry.signature}</p>
      {entry.cosign?.signed && entry.cosign.signature ? <p>{entry.cosign.signature}</p> : null}
      {entry.reason ? <p className="wrap-break-word">Motivo: {entry.reason}</p> : null}
    </div>
  )
}
