import type { Schemas } from '@/lib/api/client'
import { initials } from '@/lib/format'

type PublicProfile = Schemas['PublicProfile']

export function ProfileHeader({ profile }: { profile: PublicProfile }) {
  return (
    <div className="flex flex-col items-center text-center">
      {profile.photoUrl ? (
        <img src={profile.photoUrl} alt={`Foto de ${profile.name}`} width={112} height={112} className="size-28 rounded-full object-cover shadow" />
      ) : (
        <div aria-hidden className="flex size-28 items-center justify-center rounded-full bg-brand-100 text-3xl font-semibold text-brand-800 dark:bg-brand-900/50 dark:text-brand-100">
          {initials(profile.name)}
        </div>
      )}
      <h1 className="mt-4 text-2xl font-bold tracking-tight">{profile.name}</h1>
      {profile.area ? <p className="text-brand-700 dark:text-brand-200">{profile.area}</p> : null}
      {profile.description ? <p className="mt-3 max-w-xl whitespace-pre-line text-stone-600 dark:text-stone-400">{profile.description}</p> : null}
    </div>
  )
}
