import { useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { useIsProfessional } from '@/lib/auth'
import { formatInstant, todayLocal } from '@/lib/dates'
import { brDate } from '@/lib/format'
import { useDestroyRecord, useRecordList, type KeptRecord } from './api/retention'
import { keptUntilText, lawUntilText } from './retention-text'
import { RecordsError } from './RecordsError'
import { SharedWithMe } from './SharedWithMe'

/**
 * 'Prontuários' (issue 43 §2): the records the acting professional keeps —
 * erased clients' too — with the dates their retention allows; past the
 * 5 years the professional may sign their destruction. Below, what the
 * practice's colleagues share with them.
 */
export default function RecordsListPage() {
  const list = useRecordList()
  // A professional signed in as themself has no dashboard: their agenda is home.
  const teamMember = useIsProfessional()
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      {teamMember ? <BackLink to="/agenda">Voltar à agenda</BackLink> : <BackLink />}
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Prontuários</h1>
        <p className="text-sm text-stone-600 dark:text-stone-400">Os prontuários que você guarda e até quando. Nenhum é eliminado automaticamente.</p>
      </div>
      {list.isLoading ? <PageSpinner /> : list.isError ? <RecordsError error={list.error} fallback="Não foi possível carregar os prontuários. Tente novamente." /> : <RecordList records={list.data ?? []} />}
      <SharedWithMe />
    </div>
  )
}


function RecordList({ records }: { records: KeptRecord[] }) {
  const [destroying, setDestroying] = useState<KeptRecord>()
  if (records.length === 0) return <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum prontuário ainda.</p>
  const today = todayLocal()
  return (
    <section aria-label="Meus prontuários">
      <ul className="grid gap-3">
        {records.map((r) => (
          <li key={r.id}>
            <Card className="grid gap-2 p-4">
              <h2 className="font-semibold wrap-break-word">{r.destroyed ? 'Prontuário eliminado' : r.erased ? 'Cliente removido (LGPD)' : r.client}</h2>
              {r.destroyed ? (
                <p className="text-sm text-stone-600 dark:text-stone-400">A eliminação ficou assinada no registro de acessos.</p>
              ) : (
                <>
                  <p className="text-sm text-stone-600 dark:text-stone-400">{r.lastEntryAt ? `Última anotação em ${formatInstant(r.lastEntryAt)}` : 'Sem anotações'}</p>
                  <p className="text-sm">{keptUntilText(r.keptUntil)}</p>
                  <p className="text-sm">{lawUntilText(r.lawUntil)}</p>
                  <div className="flex flex-wrap items-center gap-2">
                    {r.clientRef ? (
                      <Button asChild variant="outline" size="sm">
                        <Link to={`/clients/${encodeURIComponent(r.clientRef)}/prontuario`}>Abrir prontuário</Link>
                      </Button>
                    ) : null}
                    {/* Destruction is possible only once the minimum retention has passed; the server checks it again. */}
                    {today >= r.keptUntil ? (
                      <Button variant="destructive" size="sm" onClick={() => setDestroying(r)}>
                        Eliminar prontuário
                      </Button>
                    ) : null}
                  </div>
                </>
              )}
            </Card>
          </li>
        ))}
      </ul>
      {destroying ? <DestroyDialog record={destroying} onClose={() => setDestroying(undefined)} /> : null}
    </section>
  )
}

/** The signed destruction: the word ELIMINAR typed, then the server's 2xx. */
function DestroyDialog({ record, onClose }: { record: KeptRecord; onClose: () => void }) {
  const destroy = useDestroyRecord()
  const [word, setWord] = useState('')
  const [error, setError] = useState<string>()
  const name = record.erased ? 'Cliente removido (LGPD)' : record.client
  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (word.trim() !== 'ELIMINAR') {
      setError('Digite ELIMINAR para confirmar.')
      return
    }
    setError(undefined)
    destroy.mutate(
      { id: record.id, confirm: word.trim() },
      {
        onSuccess: () => {
          toast.success('Prontuário eliminado')
          onClose()
        },
        onError: (err) => setError(errorMessage(err, 'Não foi possível eliminar o prontuário. Tente novamente.')),
      },
    )
  }
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle className="wrap-break-word">Eliminar o prontuário de {name}?</DialogTitle>
            <DialogDescription>
              Todas as anotações deste prontuário serão apagadas e não poderão ser recuperadas. Esta ação não pode ser desfeita. A eliminação fica registrada e assinada por você no
              registro de acessos. A guarda mínima terminou em {brDate(record.keptUntil)}; a Lei 13.787/2018 prevê a guarda até {brDate(record.lawUntil)}.
            </DialogDescription>
          </DialogHeader>
          <Field id="destroy-word" label="Digite ELIMINAR para confirmar">
            <Input id="destroy-word" autoComplete="off" value={word} onChange={(e) => setWord(e.target.value)} />
          </Field>
          <FormError message={error} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" variant="destructive" disabled={destroy.isPending}>
              {destroy.isPending ? 'Eliminando...' : 'Eliminar prontuário'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
