import { useEffect } from 'preact/hooks'
import type { ProjectSummary } from '../api/types'
import { ButtonLink, EmptyState, ErrorState, Page, Spinner } from '../components'
import { loadProjects, projectCreationDenied, projects } from '../session'
import { useSignal } from '@preact/signals'
import { messageOf } from '../api/client'

/** `/`: the account's projects with their report counts. */
export function ProjectList() {
  const failed = useSignal<string | null>(null)
  const load = () => {
    failed.value = null
    loadProjects().catch((err) => (failed.value = messageOf(err)))
  }
  useEffect(load, [])
  const list = projects.value
  const denied = projectCreationDenied.value
  return (
    <Page
      title="Projects"
      actions={
        <ButtonLink href="/projects/new" variant="primary" reason={denied}>
          New project
        </ButtonLink>
      }
    >
      {failed.value && list === undefined ? (
        <ErrorState title="Could not load your projects" message={failed.value} onRetry={load} />
      ) : list === undefined ? (
        <Spinner label="Loading projects…" />
      ) : list.length === 0 && denied ? (
        <EmptyState title="No projects for you yet">The owner or an admin of this account chooses the projects you see.</EmptyState>
      ) : list.length === 0 ? (
        <EmptyState title="No projects yet" action={<ButtonLink href="/projects/new" variant="primary">Create your first project</ButtonLink>}>
          A project is one game: it gets an SDK key, a report list and its public pages.
        </EmptyState>
      ) : (
        <ul class="project-grid" aria-label="Projects">
          {list.map((p) => (
            <ProjectCard key={p.id} project={p} />
          ))}
        </ul>
      )}
    </Page>
  )
}

function ProjectCard({ project: p }: { project: ProjectSummary }) {
  const c = p.bug_counts
  return (
    <li class="card project-card">
      <h2>
        <a href={`/projects/${encodeURIComponent(p.slug)}`}>{p.name}</a>
      </h2>
      {p.description && <p class="muted clamp">{p.description}</p>}
      <dl class="counts">
        <div>
          <dt>Total</dt>
          <dd>{c.total}</dd>
        </div>
        <div>
          <dt>Open</dt>
          <dd>{c.open}</dd>
        </div>
        <div>
          <dt>In progress</dt>
          <dd>{c.in_progress}</dd>
        </div>
        <div>
          <dt>Resolved</dt>
          <dd>{c.resolved}</dd>
        </div>
      </dl>
      <p class="small muted">
        <code>{p.slug}</code>
      </p>
    </li>
  )
}
