package dev.gpugen.lint.rules.gitops;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A token or password in gitops.argocd.repoURL is committed with every rendered Application. */
public final class GitopsRepoCredentials extends Rule {
  // scheme://userinfo@host: on https any user info is a credential (tokens travel as the user
  // name); on ssh only a password is (ssh://git@host is the key's user).
  private static final Pattern USERINFO = Pattern.compile("^(https|ssh)://([^@/]+)@");

  public GitopsRepoCredentials() {
    super(
        "gitops-repo-credentials",
        Severity.ERROR,
        "the ArgoCD repository URL carries credentials",
        "gitops.argocd.repoURL is written into every rendered Application (argocd/), which is"
            + " committed to Git and stored in the cluster as a readable custom resource; a token"
            + " or password in the URL (https://user:token@host/..., https://token@host/...,"
            + " ssh://user:password@host/...) is then in the repository history and in etcd."
            + " ArgoCD takes repository credentials from a Secret labelled"
            + " argocd.argoproj.io/secret-type: repository (or repo-creds for a URL prefix),"
            + " matched by URL, so the Application needs only the plain URL."
            + " Source: https://argo-cd.readthedocs.io/en/stable/operator-manual/declarative-setup/#repositories");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    spec.gitops()
        .ifPresent(
            g -> {
              Matcher m = USERINFO.matcher(g.argocd().repoUrl());
              if (!m.find()) {
                return;
              }
              boolean https = m.group(1).equals("https");
              if (https || m.group(2).contains(":")) {
                SpecPath path = SpecPath.of("gitops", "argocd", "repoURL");
                findings.report(
                    path,
                    path
                        + " carries "
                        + (https ? "user info (a token or password)" : "a password")
                        + " before '@'; it would be committed in every rendered Application",
                    "use the plain URL and give ArgoCD the credentials in a repository Secret");
              }
            });
  }
}
