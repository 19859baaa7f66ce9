import type { RecordEntry } from './api/records'

export const kindLabel: Record<string, string> = { prontuario: 'Prontuário', sigiloso: 'Sigiloso' }
export const templateLabel: Record<string, string> = {
  anamnese: 'Anamnese',
  evolucao: 'Evolução',
  encerramento: 'Encerramento ou encaminhamento',
  livre: 'Livre',
}

/**
 * An instant as 'dd/mm/aaaa HH:MM' in the practice's zone (the record's timeZone, where its signatures are written),
 * whatever the browser's.
 */
export function instantText(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone: zone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso))
  const part = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? ''
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`
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
