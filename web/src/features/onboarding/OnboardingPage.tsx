import { useQueryClient } from '@tanstack/react-query'
import { Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useFieldArray } from 'react-hook-form'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { HoursEditor } from '@/components/hours-editor'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { ApiError } from '@/lib/api/client'
import { showServerError, useSchemaForm } from '@/lib/form'
import { cn } from '@/lib/utils'
import { usernameAvailabilityQueryOptions } from './api/check-username'
import { useFinishOnboarding } from './api/finish-onboarding'
import { blankOnboarding, newService, onboardingSchema, stepFields } from './onboarding-form'

const taken = { title: 'Nome de usuário indisponível', description: 'Este nome de usuário já está sendo usado. Escolha outro.' }

export default function OnboardingPage() {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const [step, setStep] = useState(1)
  const form = useSchemaForm(onboardingSchema, blankOnboarding())
  const { errors } = form.formState
  const services = useFieldArray({ control: form.control, name: 'services' })
  const days = form.watch('days')
  const who = form.watch('who')
  const [checking, setChecking] = useState(false)
  const saving = useFinishOnboarding()
  const busy = checking ? 'checking' : saving.isPending || saving.isSuccess ? 'saving' : ''
  const required = () => toast.error('Erro', { description: 'Preencha todos os campos obrigatórios.' })
  const noService = () => toast.error('Erro', { description: 'Configure pelo menos um serviço.' })

  async function nextFromProfile() {
    if (!(await form.trigger([...stepFields[1]]))) {
      required()
      return
    }
    const username = form.getValues('publicUsername').trim().toLowerCase()
    if (username.length >= 3) {
      setChecking(true)
      try {
        const r = await qc.fetchQuery(usernameAvailabilityQueryOptions(username))
        if (!r.available) {
          form.setError('publicUsername', { type: 'server', message: r.message })
          toast.error(r.message === taken.description ? taken.title : 'Erro', { description: r.message })
          return
        }
      } catch {
        // The final save re-checks; a failed check does not block the owner.
      } finally {
        setChecking(false)
      }
    }
    setStep(2)
  }

  async function nextFromServices() {
    if (!(await form.trigger([...stepFields[2]]))) {
      noService()
      return
    }
    setStep(3)
  }

  const finish = form.handleSubmit(
    (body) =>
      saving.mutate(body, {
        onSuccess: () => {
          toast.success('Configuração completa!', { description: 'Você tem 7 dias grátis!' })
          navigate('/dashboard', { replace: true })
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'username_taken') {
            form.setError('publicUsername', { type: 'server', message: taken.description })
            toast.error(taken.title, { description: taken.description })
            setStep(1)
          } else {
            toast.error('Erro', { description: showServerError(form, err, 'Não foi possível salvar. Tente novamente.') })
          }
        },
      }),
    (e) => {
      if (e.name || e.area || e.publicUsername) {
        required()
        setStep(1)
      } else if (e.services) {
        noService()
        setStep(2)
      } else if (e.days) toast.error('Erro', { description: e.days.message })
      else if (e.team) toast.error('Erro', { description: e.team.message })
    },
  )

  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Vamos configurar sua agenda</h1>
        <div className="mt-3 flex items-center gap-2" aria-label={`Passo ${step} de 3`}>
          {[1, 2, 3].map((n) => (
            <span key={n} aria-hidden className={cn('h-2.5 rounded-full transition-all', n === step ? 'w-8 bg-brand-700' : n < step ? 'w-2.5 bg-brand-500' : 'w-2.5 bg-stone-300 dark:bg-stone-700')} />
          ))}
          <span className="ml-2 text-sm text-stone-600 dark:text-stone-400">Passo {step} de 3</span>
        </div>
      </div>

      {step === 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Seu perfil</CardTitle>
            <CardDescription>Como seus clientes vão encontrar você.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <Field id="ob-name" label="Nome profissional *" error={errors.name?.message}>
              <Input id="ob-name" {...form.register('name')} />
            </Field>
            <Field id="ob-area" label="Área de atuação *" error={errors.area?.message}>
              <Input id="ob-area" placeholder="Ex.: Psicologia" {...form.register('area')} />
            </Field>
            <Field id="ob-username" label="Nome de usuário público *" error={errors.publicUsername?.message}>
              <div className="flex items-center rounded-lg border border-stone-300 bg-white pl-3 dark:border-stone-700 dark:bg-stone-900">
                <span className="shrink-0 text-sm text-stone-500 dark:text-stone-400">{window.location.host}/agende/</span>
                <Input
                  id="ob-username"
                  className="border-0 pl-1 focus-visible:outline-none"
                  autoCapitalize="none"
                  aria-invalid={errors.publicUsername ? true : undefined}
                  aria-describedby={errors.publicUsername ? 'ob-username-error' : undefined}
                  {...form.register('publicUsername')}
                />
              </div>
            </Field>
            <Field id="ob-description" label="Descrição (opcional)">
              <Textarea id="ob-description" {...form.register('description')} />
            </Field>
          </CardContent>
        </Card>
      ) : null}

      {step === 2 ? (
        <Card>
          <CardHeader>
            <CardTitle>Seus serviços</CardTitle>
            <CardDescription>Cadastre um ou mais serviços. Você pode editar depois.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {services.fields.map((s, i) => (
              <fieldset key={s.id} className="grid gap-3 rounded-xl border border-stone-200 p-4 dark:border-stone-800">
                <legend className="px-1 text-sm font-medium">Serviço {i + 1}</legend>
                <Field id={`svc-${i}-name`} label="Nome do serviço *" error={errors.services?.[i]?.name?.message}>
                  <Input id={`svc-${i}-name`} {...form.register(`services.${i}.name`)} />
                </Field>
                <div className="grid grid-cols-2 gap-3">
                  <Field id={`svc-${i}-duration`} label="Duração (min) *" error={errors.services?.[i]?.duration?.message}>
                    <Input id={`svc-${i}-duration`} type="number" min={1} inputMode="numeric" {...form.register(`services.${i}.duration`)} />
                  </Field>
                  <Field id={`svc-${i}-price`} label="Preço (R$)">
                    <Input id={`svc-${i}-price`} inputMode="decimal" {...form.register(`services.${i}.price`)} />
                  </Field>
                </div>
                <Field id={`svc-${i}-description`} label="Descrição">
                  <Input id={`svc-${i}-description`} {...form.register(`services.${i}.description`)} />
                </Field>
                {services.fields.length > 1 ? (
                  <Button type="button" variant="ghost" className="justify-self-start text-red-700" onClick={() => services.remove(i)}>
                    <Trash2 aria-hidden /> Remover serviço
                  </Button>
                ) : null}
              </fieldset>
            ))}
            <Button type="button" variant="outline" onClick={() => services.append(newService())}>
              <Plus aria-hidden /> Adicionar outro serviço
            </Button>
          </CardContent>
        </Card>
      ) : null}

      {step === 3 ? (
        <Card>
          <CardHeader>
            <CardTitle>Horários e equipe</CardTitle>
            <CardDescription>Marque os dias em que você atende e diga quem atende.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <HoursEditor days={days} onChange={(next) => form.setValue('days', next, { shouldValidate: form.formState.isSubmitted })} />
            <fieldset className="grid gap-2">
              <legend className="mb-1 font-semibold">Quem atende?</legend>
              <label className="flex items-start gap-2 text-sm">
                <input type="radio" value="me" className="mt-0.5 size-4 accent-brand-700" {...form.register('who')} />
                <span>
                  <span className="font-medium">Só eu</span>
                  <span className="block text-stone-600 dark:text-stone-400">Você atende todos os serviços, com os horários acima.</span>
                </span>
              </label>
              <label className="flex items-start gap-2 text-sm">
                <input type="radio" value="team" className="mt-0.5 size-4 accent-brand-700" {...form.register('who')} />
                <span>
                  <span className="font-medium">Minha equipe</span>
                  <span className="block text-stone-600 dark:text-stone-400">Cada profissional atende os serviços; depois você ajusta os horários de cada um.</span>
                </span>
              </label>
              {who === 'team' ? (
                <Field id="onb-team" label="Nomes da equipe (um por linha) *" error={errors.team?.message}>
                  <Textarea id="onb-team" rows={3} placeholder={'Ana Souza\nBruno Lima'} {...form.register('team')} />
                </Field>
              ) : null}
            </fieldset>
          </CardContent>
        </Card>
      ) : null}

      <div className="flex justify-between gap-2">
        {step > 1 ? (
          <Button variant="outline" onClick={() => setStep((s) => s - 1)} disabled={busy !== ''}>
            Voltar
          </Button>
        ) : (
          <span />
        )}
        {step === 1 ? (
          <Button onClick={nextFromProfile} disabled={busy !== ''}>
            {busy === 'checking' ? 'Verificando...' : 'Salvar e continuar'}
          </Button>
        ) : step === 2 ? (
          <Button onClick={nextFromServices}>Salvar e continuar</Button>
        ) : (
          <Button onClick={(e) => void finish(e)} disabled={busy !== ''}>
            {busy === 'saving' ? 'Salvando...' : 'Finalizar e começar teste grátis'}
          </Button>
        )}
      </div>
    </div>
  )
}
