package dev.gpugen.lint.rules.gitops;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.regex.Pattern;

/**
 * ArgoCD follows a branch: with automated sync every push to it reaches the cluster at once, and
 * the cluster's state is not one reviewed version.
 */
public final class GitopsUnpinnedRevision extends Rule {
  // A full commit id, or a version tag (v1.4.0, 2026.11.3, v2.0.0-rc.1).
  private static final Pattern PINNED =
      Pattern.compile("^([0-9a-f]{40}|v?[0-9]+(\\.[0-9]+)+([-+][A-Za-z0-9.-]+)?)$");

  public GitopsUnpinnedRevision() {
    super(
        "gitops-unpinned-revision",
        Severity.INFO,
        "ArgoCD's targetRevision is not a tag or commit (a branch moves)",
        "gitops.argocd.targetRevision is what every gpugen Application syncs. HEAD or a branch"
            + " (main, release) moves: with automated sync each merge reaches the GPU Operator and"
            + " the NCCL settings of the whole cluster within ArgoCD's polling interval, and a"
            + " rollback is a revert rather than a change of one value. A tag (v1.4.0) or a full"
            + " commit id pins the cluster to a reviewed version, as software.gpuOperator.version"
            + " pins the chart. Branch-based promotion is a valid choice; this is information, and"
            + " gpugen cannot tell a branch from a tag by its name: only commit ids and version-like"
            + " tags count as pinned."
            + " Source: https://argo-cd.readthedocs.io/en/stable/user-guide/tracking_strategies/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.gitops()
        .ifPresent(
            g -> {
              String rev = g.argocd().targetRevision();
              if (!PINNED.matcher(rev).matches()) {
                SpecPath path = SpecPath.of("gitops", "argocd", "targetRevision");
                findings.report(
                    path,
                    path
                        + " "
                        + rev
                        + " is not a commit id or a version tag; if it is a branch it moves"
                        + (g.argocd().automated()
                            ? ", and every push to it syncs the cluster"
                            : ""),
                    "pin a tag like v1.4.0 or a full commit id to sync reviewed versions only");
              }
            });
  }
}
