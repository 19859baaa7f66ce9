import { useIsProfessional } from '@/lib/auth'
import { Mail, MessageCircle } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, Navigate, useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { BackLink } from '@/components/back-link'
import { StatusBadge } from '@/components/status-badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import type { Schemas } from '@/lib/api/client'
import { brDate, formatBRL } from '@/lib/format'
import { depositLabel } from '@/lib/api/endpoints/deposits'
import { emailText, phoneText, requiredText, serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'
import { whatsappFor } from '@/lib/whatsapp'
import { errorMessage } from '@/lib/api/client'
import { saveFile } from '@/lib/save-file'
import { erasedRecordsText } from './erased-records'
import { useClientHistory, useEraseClient, useUpdateClientContact, type ContactInput } from './api/client-history'
import { useExportClientData } from './api/export-clients'
import { formatPhone } from '@/lib/phone'
import { clientPathOf, isClientRef } from '@/components/client-link'
import { PaymentToggle } from '@/components/payment-toggle'
import { formatDocument, useReceiptSettings } from '@/lib/api/endpoints/receipts'
import { cpfReason, isCpf } from '@/lib/cpf'

type History = Schemas['ClientHistory']
type ContactFields = { name: string; phone: string; email: string; cpf: string }

const contactSchema: FormSchema<ContactFields, Omit<ContactInput, 'identifier'>> = z
  .object({
    name: requiredText('Informe o nome do cliente.'),
    phone: phoneText(),
    email: emailText('E-mail inválido.'),
    cpf: z.string().check(
      z.trim(),
      z.refine((v) => v === '' || isCpf(v), 'CPF inválido: confira os 11 dígitos.'),
    ),
  })
  .check(z.refine((v) => v.phone.trim() !== '' || v.email.trim() !== '', { message: 'Informe o telefone ou o e-mail do cliente.', path: ['phone'] }))

/** 'Ver histórico': a client's contacts, what they attended apart from what is scheduled, and every appointment, past and future. */
export default function ClientHistoryPage() {
  const { key = '' } = useParams()
  const { data, isLoading, isError } = useClientHistory(key)
  const [editing, setEditing] = useState(false)
  const teamMember = useIsProfessional()
  useEffect(() => {
    if (isError) toast.error('Cliente não encontrado', { description: 'Ele não existe ou não pôde ser carregado.' })
  }, [isError])
  // An older link carried the phone or e-mail: it still opens, and the
  // address becomes the opaque one at once.
  const ref = data?.appointments[0]?.id
  const navigate = useNavigate()
  useEffect(() => {
    if (ref && !isClientRef(key)) navigate(clientPathOf(ref), { replace: true })
  }, [ref, key, navigate])
  if (isError) return <Navigate to="/clients" replace />
  if (isLoading || !data) return <PageSpinner />
  const c = data.client
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <BackLink to="/clients">Voltar para clientes</BackLink>
      <div className="flex flex-wrap items-start justify-between gap-3">
        {/* A long name or e-mail wraps rather than widening the page on a phone. */}
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight wrap-break-word">{c.name}</h1>
          <p className="flex flex-wrap gap-3 text-sm wrap-anywhere">
            {c.phone ? (
              <a className="inline-flex items-center gap-1 text-brand-700 hover:underline dark:text-brand-200" href={whatsappFor(c.phone)} target="_blank" rel="noreferrer">
                <MessageCircle className="size-4" aria-hidden /> WhatsApp {formatPhone(c.phone)}
              </a>
            ) : null}
            {c.email ? (
              <a className="inline-flex items-center gap-1 text-brand-700 hover:underline dark:text-brand-200" href={`mailto:${c.email}`}>
                <Mail className="size-4" aria-hidden /> {c.email}
              </a>
            ) : null}
            {c.cpf ? <span>CPF {formatDocument(c.cpf)}</span> : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {/* The health record of this client, kept by the professional signed in (issue 43). */}
          <Button variant="outline" asChild>
            <Link to={`${clientPathOf(ref ?? key)}/prontuario`}>Prontuário</Link>
          </Button>
          {/* A client's contacts, copy and erase are the owner's; a professional signed in as themself reads (issue 43). */}
          {!editing && !teamMember ? (
            <Button variant="outline" onClick={() => setEditing(true)}>
              Editar dados do cliente
            </Button>
          ) : null}
        </div>
      </div>
      {editing ? <ContactForm history={data} onDone={() => setEditing(false)} /> : null}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Stat label="Atendimentos" value={String(data.attendedCount)} />
        <Stat label="Receita realizada" value={formatBRL(data.revenueCents)} />
        <Stat label="Último atendimento" value={data.lastAttended ? brDate(data.lastAttended) : '—'} />
        <Stat label="Agendados" value={data.scheduledCount === 0 ? '0' : `${data.scheduledCount} · ${formatBRL(data.scheduledCents)}`} />
        <Stat label="Próximo" value={data.nextAppointment ? brDate(data.nextAppointment) : '—'} />
        <Stat label="Faltas" value={String(data.noShows)} />
        {teamMember ? null : <Stat label="A receber" value={formatBRL(data.dueCents)} />}
      </div>
      <p className="-mt-3 text-xs text-stone-600 dark:text-stone-400">
        Atendimentos são os concluídos até agora; agendados, os confirmados que ainda vão acontecer. Cancelados não contam.
      </p>
      <Card>
        <CardHeader>
          <CardTitle>Histórico de agendamentos</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y divide-stone-100 dark:divide-stone-800" aria-label="Agendamentos do cliente">
            {data.appointments.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link to={`/appointment/${a.id}`} className="hover:underline">
                  <span className="font-medium">
                    {brDate(a.date)} às {a.time}
                  </span>{' '}
                  · {a.serviceName} · {a.professionalName} · {formatBRL(a.priceCents)}
                </Link>
                <StatusBadge status={a.status} />
              </li>
            ))}
          </ul>
          {data.truncated ? <p className="mt-2 text-sm text-amber-700">Mostrando os 500 agendamentos mais recentes.</p> : null}
        </CardContent>
      </Card>
      {teamMember ? null : <PaymentsCard history={data} />}
      {data.deposits.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>Sinais</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-stone-100 dark:divide-stone-800" aria-label="Sinais do cliente">
              {data.deposits.map((d) => (
                <li key={d.appointmentId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <Link to={`/appointment/${d.appointmentId}`} className="hover:underline">
                    <span className="font-medium">
                      {brDate(d.date)} às {d.time}
                    </span>{' '}
                    · {d.service} · {formatBRL(d.amountCents)}
                  </Link>
                  <span className="font-medium">{depositLabel[d.state] ?? d.state}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      {teamMember ? null : <PrivacyCard history={data} />}
    </div>
  )
}

/** This month as "2026-11", in the browser's calendar (the owner's, in practice). */
function thisMonth(now: Date = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`
}

/**
 * 'Pagamentos' (issue 43 §4): each attended session 'Pago' or 'A receber'
 * in one tap, what the client owes, and a month's statement.
 */
function PaymentsCard({ history }: { history: History }) {
  const ref = history.appointments[0]?.id ?? history.client.identifier
  const [month, setMonth] = useState(thisMonth)
  const navigate = useNavigate()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pagamentos</CardTitle>
        <CardDescription>
          A receber: {formatBRL(history.dueCents)}. Sessões realizadas (concluídas, ou confirmadas com o horário já passado); um sinal recebido que cobre o valor marca a sessão
          como paga sozinho.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="flex flex-wrap items-end gap-2"
          aria-label="Extrato mensal"
          onSubmit={(e) => {
            e.preventDefault()
            if (/^\d{4}-\d{2}$/.test(month)) navigate(`${clientPathOf(ref)}/statement/${month}`)
          }}
        >
          <Field id="statement-month" label="Mês do extrato">
            <Input id="statement-month" type="month" value={month} onChange={(e) => setMonth(e.target.value)} required className="w-44" />
          </Field>
          <Button type="submit" variant="outline">
            Ver extrato
          </Button>
        </form>
        {history.payments.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Nenhuma sessão realizada ainda.</p>
        ) : (
          <ul className="divide-y divide-stone-100 dark:divide-stone-800" aria-label="Pagamentos do cliente">
            {history.payments.map((p) => (
              <li key={p.appointmentId} className="grid gap-1 py-2 text-sm sm:flex sm:items-center sm:justify-between">
                <Link to={`/appointment/${p.appointmentId}`} className="hover:underline">
                  <span className="font-medium">
                    {brDate(p.date)} às {p.time}
                  </span>{' '}
                  · {p.service} · {formatBRL(p.priceCents)}
                </Link>
                <PaymentToggle payment={p} compact />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

/**
 * 'Privacidade (LGPD)': the client's right to a copy of their data and to
 * its erasure. Erasing keeps the appointments' dates and amounts for the
 * reports and removes the name, contacts and notes everywhere.
 */
function PrivacyCard({ history }: { history: History }) {
  const navigate = useNavigate()
  const exporting = useExportClientData()
  const erase = useEraseClient()
  const [open, setOpen] = useState(false)
  // The export's address carries the opaque reference too (one of their appointments), never the phone or e-mail.
  const key = history.appointments[0]?.id ?? history.client.identifier
  const save = (format: 'json' | 'csv') =>
    exporting.mutate({ key, format }, { onSuccess: saveFile, onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível exportar. Tente novamente.') }) })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Privacidade (LGPD)</CardTitle>
        <CardDescription>A pedido do cliente: uma cópia de tudo o que está guardado sobre ele, ou a exclusão dos dados pessoais.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button variant="outline" disabled={exporting.isPending} onClick={() => save('json')}>
          Exportar dados (JSON)
        </Button>
        <Button variant="outline" disabled={exporting.isPending} onClick={() => save('csv')}>
          Exportar dados (CSV)
        </Button>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="destructive">Excluir dados do cliente</Button>
          </DialogTrigger>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Excluir os dados de {history.client.name}?</DialogTitle>
              <DialogDescription>
                Nome, telefone, e-mail e observações serão apagados de todos os {history.count} agendamento(s) e das notificações. Datas, serviços e valores continuam nos relatórios
                como “Cliente removido”. Se houver prontuário deste cliente, ele fica guardado, lacrado, pelo prazo que a lei exige (LGPD art. 16). Esta ação não pode ser desfeita.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancelar
              </Button>
              <Button
                type="button"
                variant="destructive"
                disabled={erase.isPending}
                onClick={() =>
                  erase.mutate(history.client.identifier, {
                    onSuccess: (r) => {
                      // The kept records and their dates, as the server answered them (issue 43).
                      const kept = r.records > 0 && r.keptUntil && r.lawUntil ? erasedRecordsText(r.keptUntil, r.lawUntil) : undefined
                      toast.success('Dados do cliente excluídos', kept ? { description: kept, duration: 15_000 } : undefined)
                      navigate('/clients', { replace: true })
                    },
                    onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível excluir os dados. Tente novamente.') }),
                  })
                }
              >
                {erase.isPending ? 'Excluindo...' : 'Excluir dados'}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card className="p-4">
      <p className="text-sm text-stone-600 dark:text-stone-400">{label}</p>
      <p className="text-xl font-bold">{value}</p>
    </Card>
  )
}

/** Corrects the client's name and contacts in every one of their appointments. */
function ContactForm({ history, onDone }: { history: History; onDone: () => void }) {
  const c = history.client
  const form = useSchemaForm(contactSchema, { name: c.name, phone: c.phone, email: c.email, cpf: c.cpf ? formatDocument(c.cpf) : '' })
  const receipts = useReceiptSettings().data?.enabled ?? false
  const { errors } = form.formState
  const update = useUpdateClientContact()
  const navigate = useNavigate()
  const onSubmit = form.handleSubmit(
    (body) =>
      update.mutate(
        // The CPF is asked (and sent) only while the Receita Saúde's receipts are on; otherwise the stored one stays.
        { identifier: c.identifier, ...body, cpf: receipts ? body.cpf : undefined },
        {
          onSuccess: (h) => {
            toast.success('Cliente atualizado', { description: `Dados corrigidos em ${h.count === 1 ? '1 agendamento' : `${h.count} agendamentos`}.` })
            onDone()
            if (h.client.identifier !== c.identifier && h.appointments[0]) navigate(clientPathOf(h.appointments[0].id), { replace: true })
          },
          onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível atualizar o cliente. Tente novamente.') }),
        },
      ),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <Card className="p-4">
      <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Dados do cliente">
        <Field id="client-name" label="Nome *" error={errors.name?.message}>
          <Input id="client-name" {...form.register('name')} />
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="client-phone" label="Telefone" error={errors.phone?.message}>
            <Input id="client-phone" type="tel" {...form.register('phone')} />
          </Field>
          <Field id="client-email" label="E-mail" error={errors.email?.message}>
            <Input id="client-email" type="email" {...form.register('email')} />
          </Field>
        </div>
        {receipts ? (
          <Field id="client-cpf" label="CPF de quem paga" hint={cpfReason} error={errors.cpf?.message}>
            <Input id="client-cpf" inputMode="numeric" autoComplete="off" placeholder="000.000.000-00" {...form.register('cpf')} />
          </Field>
        ) : null}
        <p className="text-xs text-stone-600 dark:text-stone-400">Os dados são corrigidos em todos os agendamentos deste cliente.</p>
        <FormError message={serverError(form)} />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onDone}>
            Cancelar
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Salvando...' : 'Salvar'}
          </Button>
        </div>
      </form>
    </Card>
  )
}
