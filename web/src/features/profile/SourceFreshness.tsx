import type { ComponentPropsWithoutRef, ReactNode, Ref } from 'react'
import { Field } from '@/components/ui/field'
import { Select } from '@/components/ui/select'
import { failure, readAt, type BusyCalendar } from '@/lib/api/endpoints/calendars'
import { WriteErrorNote } from './WriteErrorNote'

/**
 * A calendar source's freshness, the same on the ICS, CalDAV and Google rows:
 * where it reads from (`where`), when its last read worked and how many busy
 * times it found ('lida às 14:05 · 3 compromissos à frente'), or that the first
 * read is on its way; and, when the last read failed, why ('Não conseguimos ler
 * sua agenda às 14:05: …') and whether its last busy times still count (the
 * owner's keep-24h or drop); and the last failed write of an appointment
 * into it, until one works (CalDAV and Google write; an address never does).
 */
export function SourceFreshness({ cal, where, extra }: { cal: BusyCalendar; where: ReactNode; extra?: ReactNode }) {
  const failed = failure(cal)
  return (
    <>
      <span className="block text-xs break-all text-stone-600 dark:text-stone-400">
        {where}
        {cal.lastReadAt ? ` · lida ${readAt(cal.lastReadAt)} · ${cal.events} ${cal.events === 1 ? 'compromisso' : 'compromissos'} à frente` : failed ? '' : ' · lendo a agenda…'}
        {extra}
      </span>
      {failed ? (
        <span role="status" className="block text-xs font-medium text-red-700 dark:text-red-300">
          {failed}.{' '}
          {cal.kept ? 'Os últimos horários ocupados continuam valendo por até 24 horas.' : 'Os horários ocupados dela não estão sendo considerados.'}
        </span>
      ) : null}
      <WriteErrorNote cal={cal} />
    </>
  )
}

/**
 * What a source's last busy times do when it cannot be read: kept up to 24
 * hours, or dropped at once. A native select, so it takes a form's register()
 * or a value and onChange alike.
 */
export function OnFailureField({ id, label = 'Se a agenda não puder ser lida', ...select }: { id: string; label?: string } & ComponentPropsWithoutRef<'select'> & { ref?: Ref<HTMLSelectElement> }) {
  return (
    <Field id={id} label={label}>
      <Select id={id} className="w-full min-w-0" {...select}>
        <option value="keep">Manter os últimos por até 24 horas</option>
        <option value="drop">Liberar os horários na hora</option>
      </Select>
    </Field>
  )
}
