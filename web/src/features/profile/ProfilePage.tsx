import { useEffect } from 'react'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, type Schemas } from '@/lib/api/client'
import { useProfile } from '@/lib/api/endpoints/get-profile'
import { serverError, showServerError, useSchemaForm } from '@/lib/form'
import { useUpdateProfile } from './api/update-profile'
import { AddressCard } from './AddressCard'
import { BusyCalendarsCard } from './BusyCalendarsCard'
import { CaldavCard } from './CaldavCard'
import { CalendarFeedsCard } from './CalendarFeedsCard'
import { MessageTemplatesCard } from './MessageTemplatesCard'
import { PixSettingsCard } from './PixSettingsCard'
import { PublicPageCard } from './PublicPageCard'
import { ReceitaSaudeCard } from './ReceitaSaudeCard'
import { RemindersCard } from './RemindersCard'
import { WidgetCard } from './WidgetCard'
import { MercadoPagoCard } from './MercadoPagoCard'
import { WhatsAppCard } from './WhatsAppCard'
import { AccountDataCard } from './AccountDataCard'
import { DeleteAccountDialog } from './DeleteAccountDialog'
import { PhotoCard } from './PhotoCard'
import { profileFields, profileSchema } from './profile-form'

type Profile = Schemas['Profile']

const zones: [string, string][] = [
  ['America/Sao_Paulo', 'Brasília (SP, RJ, MG, Sul, GO, DF…)'],
  ['America/Bahia', 'Bahia'],
  ['America/Fortaleza', 'Fortaleza (CE, MA, PI, RN, PB)'],
  ['America/Recife', 'Recife (PE)'],
  ['America/Maceio', 'Maceió (AL, SE)'],
  ['America/Belem', 'Belém (PA, AP)'],
  ['America/Santarem', 'Santarém (oeste do PA)'],
  ['America/Araguaina', 'Araguaína (TO)'],
  ['America/Cuiaba', 'Cuiabá (MT)'],
  ['America/Campo_Grande', 'Campo Grande (MS)'],
  ['America/Manaus', 'Manaus (AM)'],
  ['America/Porto_Velho', 'Porto Velho (RO)'],
  ['America/Boa_Vista', 'Boa Vista (RR)'],
  ['America/Rio_Branco', 'Rio Branco (AC)'],
  ['America/Eirunepe', 'Eirunepé (oeste do AM)'],
  ['America/Noronha', 'Fernando de Noronha'],
]

export default function ProfilePage() {
  const { data, isLoading, isError } = useProfile()
  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Erro ao carregar informações do perfil.' })
  }, [isError])
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <BackLink />
      <h1 className="text-2xl font-bold tracking-tight">Perfil</h1>
      {isLoading || !data ? (
        isError ? null : <PageSpinner />
      ) : (
        <>
          <PhotoCard name={data.name} photoUrl={data.photoUrl} />
          <ProfileForm profile={data} />
          <PublicPageCard />
          <PixSettingsCard />
          <ReceitaSaudeCard />
          <RemindersCard />
          <MessageTemplatesCard />
          <WhatsAppCard />
          <MercadoPagoCard />
          <WidgetCard username={data.publicUsername} name={data.name} />
          <CalendarFeedsCard />
          <BusyCalendarsCard />
          <CaldavCard />
        </>
      )}
      <AccountDataCard />
      <Card className="border-red-300 dark:border-red-900">
        <CardHeader>
          <CardTitle className="text-red-700 dark:text-red-300">Zona de Perigo</CardTitle>
          <CardDescription>Excluir sua conta remove permanentemente todos os seus dados.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteAccountDialog />
        </CardContent>
      </Card>
    </div>
  )
}

function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile()
  const form = useSchemaForm(profileSchema, profileFields(profile))
  const { errors } = form.formState
  const username = form.watch('publicUsername')
  const busy = update.isPending
  // Said before saving: a new zone keeps the book as written (10:00 stays
  // 10:00); what hangs on the instant, reminders and calendars, follows it.
  const zoneChanged = Boolean(form.formState.dirtyFields.timeZone)

  const onSubmit = form.handleSubmit(
    (body) =>
      update.mutate(body, {
        // The server completes links and phones: the form shows what was saved.
        onSuccess: (saved) => {
          form.reset(profileFields(saved))
          toast.success('Sucesso', { description: 'Perfil atualizado com sucesso!' })
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'username_taken') {
            form.setError('publicUsername', { type: 'server', message: err.message })
            toast.error('Nome de usuário indisponível', { description: err.message })
          } else toast.error('Erro', { description: showServerError(form, err, 'Erro ao salvar informações do perfil.') })
        },
      }),
    () => {
      const v = form.getValues()
      const missing = [v.name, v.email, v.area].some((x) => x.trim() === '')
      toast.error('Erro', { description: missing ? 'Preencha todos os campos obrigatórios.' : 'Confira os campos destacados.' })
    },
  )

  return (
    <form onSubmit={onSubmit} className="grid gap-6" noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Informações básicas</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="name" label="Nome completo *" error={errors.name?.message}>
            <Input id="name" {...form.register('name')} />
          </Field>
          <Field id="email" label="E-mail *" hint="Não aparece na sua página pública." error={errors.email?.message}>
            <Input id="email" type="email" {...form.register('email')} />
          </Field>
          <Field
            id="publicUsername"
            label="Nome de usuário público"
            hint={`Usado na sua URL pública: ${window.location.origin}/agende/${username.trim() || 'seu-nome'}`}
            error={errors.publicUsername?.message}
          >
            <Input id="publicUsername" autoCapitalize="none" {...form.register('publicUsername')} />
          </Field>
          <Field id="area" label="Área de atuação *" error={errors.area?.message}>
            <Input id="area" {...form.register('area')} />
          </Field>
          <div className="sm:col-span-2">
            <Field id="description" label="Biografia">
              <Textarea id="description" {...form.register('description')} />
            </Field>
          </div>
          <Field id="contactEmail" label="E-mail de contato (opcional, exibido na sua página pública)" error={errors.contactEmail?.message}>
            <Input id="contactEmail" type="email" autoComplete="email" placeholder="contato@seunegocio.com.br" {...form.register('contactEmail')} />
          </Field>
          <Field id="phone" label="Telefone">
            <Input id="phone" type="tel" {...form.register('phone')} />
          </Field>
          <div className="grid gap-2">
            <Field id="timeZone" label="Fuso horário">
              <select
                id="timeZone"
                {...form.register('timeZone')}
                aria-describedby={zoneChanged ? 'timeZone-note' : undefined}
                className="h-10 rounded-lg border border-stone-300 bg-white px-3 text-base sm:text-sm dark:border-stone-700 dark:bg-stone-900"
              >
                {zones.map(([z, label]) => (
                  <option key={z} value={z}>
                    {label}
                  </option>
                ))}
              </select>
            </Field>
            {/* Always in the page, so the note is announced when it appears. */}
            <p id="timeZone-note" role="status" className={zoneChanged ? 'rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200' : 'sr-only'}>
              {zoneChanged ? 'Os agendamentos mantêm a data e o horário locais; lembretes e calendários passam a seguir o novo fuso.' : ''}
            </p>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Redes sociais</CardTitle>
          <CardDescription>Pode digitar só o usuário: nós completamos o endereço.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="instagram" label="Instagram">
            <Input id="instagram" placeholder="@seuperfil" {...form.register('instagram')} />
          </Field>
          <Field id="whatsapp" label="WhatsApp">
            <Input id="whatsapp" type="tel" placeholder="(11) 99999-9999" {...form.register('whatsapp')} />
          </Field>
          <Field id="linkedin" label="LinkedIn">
            <Input id="linkedin" placeholder="seu-perfil" {...form.register('linkedin')} />
          </Field>
          <Field id="website" label="Site">
            <Input id="website" {...form.register('website')} />
          </Field>
        </CardContent>
      </Card>
      <AddressCard form={form} />
      <FormError message={serverError(form)} />
      <div className="flex justify-end">
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Salvando...' : 'Salvar perfil'}
        </Button>
      </div>
    </form>
  )
}
