import type { UseFormReturn } from 'react-hook-form'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ufs } from '@/lib/ufs'
import { councils, type ProfessionalFields } from './professional-form'

const select = 'h-10 w-full rounded-lg border border-stone-300 bg-white px-3 text-base sm:text-sm dark:border-stone-700 dark:bg-stone-900'

/**
 * "Conselho", "UF" and "Número de registro" (issue 43 §3): shown on the public
 * page and the booking form after the professional's name, as the councils'
 * codes ask of any publicity ("Psicóloga — CRP 06/12345").
 */
export function CouncilFields({ form }: { form: UseFormReturn<ProfessionalFields, unknown, unknown> }) {
  const { errors } = form.formState
  return (
    <fieldset className="grid gap-4 sm:grid-cols-[1fr_2fr]">
      <legend className="mb-1 text-sm text-stone-600 dark:text-stone-400">Registro no conselho (aparece na página pública, como o conselho exige)</legend>
      <div className="sm:col-span-2">
        <Field id="pro-council" label="Conselho" error={errors.council?.message}>
          <select id="pro-council" className={select} {...form.register('council')}>
            <option value="">Nenhum</option>
            {councils.map(([c, name]) => (
              <option key={c} value={c}>
                {c} — {name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field id="pro-council-uf" label="UF" error={errors.councilUf?.message}>
        <select id="pro-council-uf" className={select} {...form.register('councilUf')}>
          <option value="">—</option>
          {ufs.map((uf) => (
            <option key={uf} value={uf}>
              {uf}
            </option>
          ))}
        </select>
      </Field>
      <Field id="pro-council-number" label="Número de registro" hint="Como está na carteira, por exemplo 06/12345." error={errors.councilNumber?.message}>
        <Input id="pro-council-number" inputMode="text" autoCapitalize="characters" maxLength={20} {...form.register('councilNumber')} />
      </Field>
    </fieldset>
  )
}
