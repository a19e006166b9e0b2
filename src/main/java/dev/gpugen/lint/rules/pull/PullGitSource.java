package dev.gpugen.lint.rules.pull;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.PullSource;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pull mode from Git: an https:// or ssh:// URL with no credentials in it, at a pinned ref. Every
 * node sees its user data, so a token in the URL would be readable by anything on the nodes.
 */
public final class PullGitSource extends Rule {
  // scheme://[userinfo@]host[:port]/path
  private static final Pattern URL =
      Pattern.compile("^(https|ssh)://(?:([^@/]*)@)?([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?/(.+)$");

  public PullGitSource() {
    super(
        "pull-git-source",
        Severity.ERROR,
        "pull mode from Git without a usable URL and ref, or with credentials in the URL",
        "With ansible.pull.source: git every node clones ansible.pull.gitUrl at"
            + " ansible.pull.gitRef at boot and applies the rendered folder it finds there. The URL"
            + " must be https:// or ssh:// (git:// and http:// are unauthenticated and can be"
            + " tampered with on the way), and must carry no credentials: the user data that"
            + " holds it is readable on every node through the instance metadata service and in"
            + " the EC2 console. Give the nodes read access another way (a deploy key baked"
            + " into the image, or a repository the VPC can read). The ref is a tag or a commit,"
            + " so that every node of a pool applies the same version."
            + " Sources: https://git-scm.com/docs/git-fetch#_git_urls ,"
            + " https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/user-data.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Ansible a = spec.ansible();
    if (!a.pullMode() || a.pull().source() != PullSource.GIT) {
      return;
    }
    Optional<String> url = a.pull().gitUrl();
    if (url.isEmpty()) {
      findings.report(
          SpecPath.of("ansible", "pull", "source"),
          "ansible.pull.source git needs ansible.pull.gitUrl",
          "add gitUrl: https://git.example.com/org/cluster-config.git");
    } else {
      SpecPath at = SpecPath.of("ansible", "pull", "gitUrl");
      Matcher m = URL.matcher(url.get());
      if (!m.matches()) {
        findings.report(
            at,
            "ansible.pull.gitUrl must be an https:// or ssh:// URL with a host and a path",
            "write https://host/org/repo.git or ssh://git@host/org/repo.git");
      } else if (m.group(2) != null && (m.group(1).equals("https") || m.group(2).contains(":"))) {
        findings.report(
            at,
            "ansible.pull.gitUrl carries credentials ("
                + (m.group(1).equals("https") ? "a user or token" : "a password")
                + " before '@'), readable by anything on the nodes",
            "remove them from the URL: give the nodes read access with a deploy key or a"
                + " repository the VPC can reach");
      }
    }
    if (a.pull().gitRef().isEmpty()) {
      findings.report(
          SpecPath.of("ansible", "pull", "source"),
          "ansible.pull.source git needs ansible.pull.gitRef (a tag or commit)",
          "add gitRef: the tag or commit that holds this render");
    }
  }
}
