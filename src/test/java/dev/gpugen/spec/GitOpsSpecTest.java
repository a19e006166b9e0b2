package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** gitops.argocd: its defaults, and the grammar's refusal of values that are no Git URL or ref. */
class GitOpsSpecTest {
  static final String SPEC = DefaultsTest.MINIMAL + "gitops:\n  argocd:\n";

  @TempDir Path dir;

  @org.junit.jupiter.api.Test
  void defaultsFollowArgoCdAndTheRenderFolder() {
    ClusterSpec s = TestSpecs.parse(SPEC + "    repoURL: https://git.example.com/infra.git\n");
    ClusterSpec.ArgoCd a = s.gitops().orElseThrow().argocd();
    assertEquals("https://git.example.com/infra.git", a.repoUrl());
    assertEquals("HEAD", a.targetRevision());
    assertEquals("roles-generated/demo/argocd", a.path());
    assertEquals("argocd", a.namespace());
    assertEquals("default", a.project());
    assertEquals("https://kubernetes.default.svc", a.server());
    assertTrue(a.automated());
    assertEquals(Optional.empty(), TestSpecs.parse(DefaultsTest.MINIMAL).gitops());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "repoURL: http://git.example.com/infra.git",
        "repoURL: file:///srv/infra.git",
        "repoURL: git://git.example.com/infra.git",
        "repoURL: \"https://git.example.com/{{ lookup('env','HOME') }}\"",
        "repoURL: \"https://git.example.com/a b\"",
        "repoURL: \"https://git.example.com/x\\\"y\"",
        "targetRevision: \"main..evil\"",
        "targetRevision: \"-rf\"",
        "targetRevision: \"v1 ; rm\"",
        "path: ../outside",
        "path: /abs/argocd",
        "namespace: Argo_CD",
        "project: \"a/b\"",
        "server: http://10.0.0.1:6443"
      })
  void valuesThatAreNoGitUrlRefOrNameAreErrors(String line) throws Exception {
    String spec = SPEC + "    repoURL: https://git.example.com/infra.git\n";
    String key = line.substring(0, line.indexOf(':'));
    spec = key.equals("repoURL") ? SPEC + "    " + line + "\n" : spec + "    " + line + "\n";
    Path file = dir.resolve("spec.yaml");
    Files.writeString(file, spec);
    Cli r = Cli.run("validate", file.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("gitops.argocd." + key), r.toString());
  }
}
