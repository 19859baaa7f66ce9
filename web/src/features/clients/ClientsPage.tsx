import { useIsProfessional } from '@/lib/auth'
import { Download, Search } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useAddressState } from '@/lib/address-state'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { clientPathOf } from '@/components/client-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { tableCards } from '@/components/ui/table-cards'
import { errorMessage } from '@/lib/api/client'
import { brDate, formatBRL } from '@/lib/format'
import { saveFile } from '@/lib/save-file'
import { cn } from '@/lib/utils'
import { useExportClients } from './api/export-clients'
import { useClients } from './api/list-clients'
import { formatPhone } from '@/lib/phone'

const PAGE = 50

/**
 * The search lives in the address (?q=, and ?p= for the page) so reload,
 * back and a shared link show the same list; typing updates it after a
 * pause, not on every key, and goes back to the first page.
 */
function useClientsState() {
  const [params, setParams] = useAddressState()
  const q = params.get('q') ?? ''
  const page = Math.max(0, Number(params.get('p') ?? '1') - 1 || 0)
  // A new search goes back to the first page.
  const set = (next: { q?: string; page?: number }, replace = false) =>
    setParams(next.q !== undefined ? { q: next.q, p: undefined } : { p: next.page ? String(next.page + 1) : undefined }, replace)
  return { q, page, set }
}

export default function ClientsPage() {
  const { q, page, set } = useClientsState()
  const [search, setSearch] = useState(q)
  useEffect(() => {
    const t = setTimeout(() => {
      if (search.trim() !== q) set({ q: search.trim() }, true)
    }, 300)
    return () => clearTimeout(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search])
  const { data, isLoading, isError, isFetching } = useClients(q, PAGE, page * PAGE)
  const exporting = useExportClients()
  const teamMember = useIsProfessional()
  const busy = exporting.isPending
  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Não foi possível carregar os clientes.' })
  }, [isError])

  function download() {
    exporting.mutate(q, {
      onSuccess: saveFile,
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível exportar os clientes. Tente novamente.') }),
    })
  }

  const total = data?.total ?? 0
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Clientes</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
            {q ? (total === 1 ? '1 cliente encontrado' : `${total} clientes encontrados`) : total === 1 ? '1 cliente' : `${total} clientes`}
          </p>
        </div>
        {/* The export is the owner's (issue 43): a professional signed in as themself sees their own clients here. */}
        {teamMember ? null : (
          <Button variant="outline" onClick={download} disabled={busy || total === 0}>
            <Download aria-hidden /> {busy ? 'Exportando...' : 'Exportar CSV'}
          </Button>
        )}
      </div>
      <div className="grid max-w-md gap-2">
        <Label htmlFor="clients-search">Buscar cliente</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500" aria-hidden />
          <Input
            id="clients-search"
            type="search"
            maxLength={100}
            className="pl-9"
            placeholder="Nome, telefone ou e-mail"
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-describedby="clients-search-hint"
          />
        </div>
        <p id="clients-search-hint" className="text-xs text-stone-500 dark:text-stone-400">
          Parte do nome (sem se preocupar com acentos), os dígitos do telefone ou o e-mail.
        </p>
      </div>
      <Card className={cn('overflow-x-auto', total > 0 && tableCards.frame)} aria-busy={isFetching}>
        {isLoading ? (
          <div className="p-10 text-center">
            <Spinner />
          </div>
        ) : total === 0 ? (
          <p className="p-10 text-center text-stone-600 dark:text-stone-400">
            {q ? `Nenhum cliente encontrado para “${q}”.` : 'Nenhum cliente ainda. Eles aparecem aqui a partir dos agendamentos.'}
          </p>
        ) : (
          <table className={cn(tableCards.table, 'sm:min-w-[880px]')}>
            <thead className={cn(tableCards.head, 'border-b border-stone-200 text-left text-stone-600 dark:border-stone-800 dark:text-stone-400')}>
              <tr>
                <th className="p-4 font-medium">Nome</th>
                <th className="p-4 font-medium">Contato</th>
                <th className="p-4 font-medium">Atendimentos</th>
                <th className="p-4 font-medium">Último atendimento</th>
                <th className="p-4 font-medium">Receita realizada</th>
                <th className="p-4 font-medium">Faltas</th>
                <th className="p-4 font-medium">Próximo</th>
                <th className="p-4 text-right font-medium">Ações</th>
              </tr>
            </thead>
            <tbody className={tableCards.body}>
              {data!.clients.map((c) => (
                <tr key={c.identifier} className={tableCards.row}>
                  <td className={tableCards.title}>
                    <Link to={clientPathOf(c.ref)} className="hover:underline">
                      {c.name}
                    </Link>
                  </td>
                  <td className={tableCards.cell} data-label="Contato">
                    <span className="min-w-0 break-all sm:break-normal">
                      <span className="block">{c.email || '-'}</span>
                      {c.phone ? <span className="block text-stone-500 dark:text-stone-400">{formatPhone(c.phone)}</span> : null}
                    </span>
                  </td>
                  <td className={tableCards.cell} data-label="Atendimentos">
                    {c.attendedCount}
                  </td>
                  <td className={tableCards.cell} data-label="Último atendimento">
                    {c.lastAttended ? brDate(c.lastAttended) : '—'}
                  </td>
                  <td className={tableCards.cell} data-label="Receita realizada">
                    {formatBRL(c.revenueCents)}
                  </td>
                  <td className={tableCards.cell} data-label="Faltas">
                    {c.noShows}
                  </td>
                  <td className={tableCards.cell} data-label="Próximo">
                    {c.nextAppointment ? (
                      <span>
                        <span className="block">{brDate(c.nextAppointment)}</span>
                        <span className="block text-stone-500 dark:text-stone-400">
                          {c.scheduledCount === 1 ? '1 agendado' : `${c.scheduledCount} agendados`} · {formatBRL(c.scheduledCents)}
                        </span>
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className={cn(tableCards.actions, 'sm:text-right')}>
                    <Button variant="ghost" size="sm" asChild>
                      <Link to={clientPathOf(c.ref)} aria-label={`Ver histórico de ${c.name}`}>
                        Ver histórico
                      </Link>
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {total > PAGE ? (
        <div className="flex items-center justify-end gap-2 text-sm">
          <Button variant="outline" size="sm" disabled={page === 0} onClick={() => set({ page: page - 1 })}>
            Anterior
          </Button>
          <span>
            Página {page + 1} de {Math.ceil(total / PAGE)}
          </span>
          <Button variant="outline" size="sm" disabled={(page + 1) * PAGE >= total} onClick={() => set({ page: page + 1 })}>
            Próxima
          </Button>
        </div>
      ) : null}
    </div>
  )
}
