import type { Schemas } from '@/lib/api/client'
import { Avatar } from '@/components/ui/avatar'

type PublicProfile = Schemas['PublicProfile']

export function ProfileHeader({ profile }: { profile: PublicProfile }) {
  return (
    <div className="flex flex-col items-center text-center">
      <Avatar name={profile.name} photoUrl={profile.photoUrl} size="xl" className={profile.photoUrl ? 'shadow' : undefined} />
      <h1 className="mt-4 text-2xl font-bold tracking-tight">{profile.name}</h1>
      {profile.area ? <p className="text-brand-700 dark:text-brand-200">{profile.area}</p> : null}
      {profile.description ? <p className="mt-3 max-w-xl whitespace-pre-line text-stone-600 dark:text-stone-400">{profile.description}</p> : null}
    </div>
  )
}
