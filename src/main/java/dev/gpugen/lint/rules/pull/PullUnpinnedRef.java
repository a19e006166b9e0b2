package dev.gpugen.lint.rules.pull;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.AnsibleMode;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.PullSource;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.regex.Pattern;

/**
 * A pull-mode node checks out ansible.pull.gitRef at boot and runs it as root: a branch means each
 * node runs whatever the branch held when it booted, so one fleet runs several versions.
 */
public final class PullUnpinnedRef extends Rule {
  // A full commit id, or a version tag (v1.4.0, 2026.11.3, v2.0.0-rc.1).
  private static final Pattern PINNED =
      Pattern.compile("^([0-9a-f]{40}|v?[0-9]+(\\.[0-9]+)+([-+][A-Za-z0-9.-]+)?)$");

  public PullUnpinnedRef() {
    super(
        "pull-unpinned-ref",
        Severity.WARNING,
        "pull mode's gitRef is not a tag or commit (a branch moves)",
        "With ansible.pull.source: git every node clones the repository at boot and runs"
            + " ansible.pull.gitRef as root. A branch (main) moves: nodes that boot after a merge"
            + " run the new playbooks before anyone reviewed them against this fleet, and nodes"
            + " of one pool end up configured by different versions. A tag (v1.4.0) or a full"
            + " commit id pins every node to one reviewed version, as the S3 source pins the"
            + " bundle by the spec's SHA-256. gpugen cannot tell a branch from a tag by its name:"
            + " only commit ids and version-like tags count as pinned."
            + " Source: https://git-scm.com/docs/git-clone#Documentation/git-clone.txt---branchname");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Pull pull = spec.ansible().pull();
    if (spec.ansible().mode() != AnsibleMode.PULL || pull.source() != PullSource.GIT) {
      return;
    }
    pull.gitRef()
        .filter(ref -> !PINNED.matcher(ref).matches())
        .ifPresent(
            ref -> {
              SpecPath path = SpecPath.of("ansible", "pull", "gitRef");
              findings.report(
                  path,
                  path
                      + " "
                      + ref
                      + " is not a commit id or a version tag; if it is a branch,"
                      + " each node runs what it held when the node booted",
                  "pin a tag like v1.4.0 or a full commit id");
            });
  }
}
