import { useRef, useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { useConfig } from '@/lib/api/endpoints/get-config'
import { useLookupCep } from './api/lookup-cep'
import { cepDigits, formatCep, ufs, type ProfileFields } from './profile-form'

type Form = UseFormReturn<ProfileFields, unknown, Schemas['ProfileInput']>

const selectClass = 'h-10 w-full rounded-lg border border-stone-300 bg-white px-3 text-base sm:text-sm dark:border-stone-700 dark:bg-stone-900'

/**
 * The practice's address (shown on the public page with a map link, and in
 * every message about an appointment in person) and the fixed video-call
 * room (the place of an online service without a link of its own). With a
 * CEP lookup on the server (GET /api/config cepLookup), 8 digits fill
 * street, bairro, city and UF; a slow or failing lookup only says so, and
 * saving never waits for it.
 */
export function AddressCard({ form }: { form: Form }) {
  const { errors } = form.formState
  const config = useConfig()
  const lookup = useLookupCep()
  const [note, setNote] = useState('')
  const asked = useRef('')

  const fill = (cep: string) => {
    const digits = cepDigits(cep)
    if (!config.data?.cepLookup || !digits || asked.current === digits) return
    asked.current = digits
    setNote('Buscando o endereço do CEP...')
    lookup.mutate(digits, {
      onSuccess: (a) => {
        if (asked.current !== digits) return
        const set = (k: 'street' | 'district' | 'city' | 'state', v: string) => {
          if (v) form.setValue(k, v, { shouldDirty: true })
        }
        set('street', a.street)
        set('district', a.district)
        set('city', a.city)
        set('state', a.state)
        setNote('Endereço preenchido pelo CEP. Confira e informe o número e o complemento.')
      },
      onError: (e) => {
        if (asked.current === digits) setNote(errorMessage(e, 'Não foi possível buscar o CEP agora. Preencha o endereço à mão.'))
      },
    })
  }

  const cep = form.register('cep', {
    onChange: (e: { target: { value: string } }) => {
      const shown = formatCep(e.target.value)
      if (shown !== e.target.value) form.setValue('cep', shown)
      if (cepDigits(shown) === null) {
        asked.current = ''
        setNote('')
      } else fill(shown)
    },
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>Endereço e atendimento online</CardTitle>
        <CardDescription>
          O endereço aparece na sua página pública (com link para o mapa), na confirmação, nos e-mails e no convite da agenda. Deixe em branco se você só atende online.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-6">
        <div className="sm:col-span-2">
          <Field id="cep" label="CEP" error={errors.cep?.message} hint={config.data?.cepLookup ? 'Com o CEP, preenchemos rua, bairro, cidade e UF.' : undefined}>
            <Input id="cep" inputMode="numeric" autoComplete="postal-code" placeholder="00000-000" maxLength={9} {...cep} />
          </Field>
          <p aria-live="polite" className={note ? 'mt-2 text-xs text-stone-600 dark:text-stone-300' : 'sr-only'}>
            {note}
          </p>
        </div>
        <div className="sm:col-span-4">
          <Field id="street" label="Rua (logradouro)" error={errors.street?.message}>
            <Input id="street" autoComplete="address-line1" {...form.register('street')} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id="number" label="Número">
            <Input id="number" {...form.register('number')} />
          </Field>
        </div>
        <div className="sm:col-span-4">
          <Field id="complement" label="Complemento">
            <Input id="complement" placeholder="Sala, andar, bloco" autoComplete="address-line2" {...form.register('complement')} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id="district" label="Bairro">
            <Input id="district" {...form.register('district')} />
          </Field>
        </div>
        <div className="sm:col-span-3">
          <Field id="city" label="Cidade" error={errors.city?.message}>
            <Input id="city" autoComplete="address-level2" {...form.register('city')} />
          </Field>
        </div>
        <div className="sm:col-span-1">
          <Field id="state" label="UF">
            <select id="state" autoComplete="address-level1" className={selectClass} {...form.register('state')}>
              <option value="">—</option>
              {ufs.map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="sm:col-span-6">
          <Field
            id="roomLink"
            label="Sala fixa de videochamada (opcional)"
            hint="Usada pelos serviços online que não têm um link próprio. Só quem agenda recebe o link."
            error={errors.roomLink?.message}
          >
            <Input id="roomLink" type="url" inputMode="url" autoCapitalize="none" placeholder="https://meet.google.com/abc-defg-hij" {...form.register('roomLink')} />
          </Field>
        </div>
      </CardContent>
    </Card>
  )
}
