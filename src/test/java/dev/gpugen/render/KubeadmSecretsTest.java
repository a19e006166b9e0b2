package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The kubeadm join token, the control-plane certificate key and the admin kubeconfig exist only
 * while play 02b runs: no render holds a token, a certificate key, a CA hash or a credential, the
 * state folder the kubeconfig lands in is git-ignored, and every task that handles them (kubeadm
 * init's output, token create, upload-certs, the join, the kubeconfig's content) is no_log.
 */
class KubeadmSecretsTest {
  /** kubeadm's bootstrap token form, [a-z0-9]{6}.[a-z0-9]{16} (kubeadm token --help). */
  static final Pattern TOKEN =
      Pattern.compile("(?<![a-z0-9])[a-z0-9]{6}\\.[a-z0-9]{16}(?![a-z0-9])");

  /** What a join command (a worker's or a control-plane host's) or a kubeconfig leaves behind. */
  static final Pattern CREDENTIAL =
      Pattern.compile(
          "--token[ =]|--discovery-token-ca-cert-hash[ =]sha256:|sha256:[0-9a-f]{64}"
              + "|--certificate-key[ =][0-9a-f]"
              + "|client-key-data|client-certificate-data|BEGIN [A-Z ]*PRIVATE KEY");

  @TempDir Path tmp;

  @Test
  void noRenderedFileHoldsAJoinTokenOrACredential() throws Exception {
    for (String name : List.of("static-kubeadm", "static-kubeadm-ha", "aws-kubeadm")) {
      Path dir = RenderedCase.render(name, tmp.resolve(name)).ansible();
      assertTrue(Files.exists(dir.resolve("02b-kubernetes.yml")), "the kubeadm play is rendered");
      assertEquals(List.of(), hits(dir), name);
    }
    // The committed example render too (what CI checks is current).
    Path example = Golden.repo().resolve("roles-generated/lab-metal/ansible");
    assertTrue(Files.exists(example.resolve("02b-kubernetes.yml")), "lab-metal renders kubeadm");
    assertEquals(List.of(), hits(example));
  }

  /** The scan finds what it looks for (else a clean result proves nothing). */
  @Test
  void theScanFindsATokenAndAJoinCommand() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("leak"));
    Files.writeString(
        dir.resolve("x.yml"),
        "kubeadm join 10.0.0.10:6443 --token abcdef.0123456789abcdef"
            + " --discovery-token-ca-cert-hash sha256:"
            + "0".repeat(64)
            + " --control-plane --certificate-key "
            + "e".repeat(64)
            + "\n");
    assertEquals(4, hits(dir).size(), hits(dir)::toString);
  }

  @Test
  void theStateFolderIsIgnored() throws Exception {
    Path dir = RenderedCase.render("static-kubeadm", tmp.resolve("r")).ansible();
    List<String> ignored = Files.readAllLines(dir.resolve(".gitignore"));
    assertTrue(ignored.contains("/.state/"), ignored::toString);
    String all = Files.readString(dir.resolve("group_vars/all.yml"));
    assertTrue(all.contains("kubeadm_kubeconfig: \"{{ playbook_dir }}/.state/kubeconfig\""), all);
  }

  @Test
  void everyTaskThatSeesTheTokenOrTheKubeconfigIsNoLog() throws Exception {
    Path dir = RenderedCase.render("static-kubeadm", tmp.resolve("r")).ansible();
    Path tasks = dir.resolve("roles/kubeadm/tasks");
    List<Map<String, Object>> all = new ArrayList<>();
    for (String f : List.of("init.yml", "join.yml")) {
      all.addAll(flatten(load(tasks.resolve(f))));
    }
    List<String> sensitive = new ArrayList<>();
    for (Map<String, Object> t : all) {
      String text = t.toString();
      boolean handles =
          text.contains("kubeadm_join_command")
              || text.contains("kubeadm_join_argv")
              || text.contains("kubeadm_upload_certs")
              || text.contains("upload-certs")
              || text.contains("--print-join-command")
              || text.contains("init,")
              || text.contains("kubeadm_admin_kubeconfig")
              || text.contains("admin.conf") && t.containsKey("ansible.builtin.slurp");
      if (handles) {
        sensitive.add((String) t.get("name"));
        assertEquals(Boolean.TRUE, t.get("no_log"), t.get("name") + " must be no_log: " + t);
      }
    }
    // The tasks that must be covered are found (a renamed variable would silently skip them).
    for (String name :
        List.of(
            "Initialise the control plane",
            "Read the admin kubeconfig",
            "Write the admin kubeconfig into the state folder",
            "Create a join command on the control plane",
            "Upload the control-plane certificates for this join",
            "Build the join command",
            "Check the join command",
            "Join with kubeadm")) {
      assertTrue(sensitive.contains(name), name + " not among " + sensitive);
    }
    // kubeadm init does not print its token either, and uploads the certificates (for the
    // control-plane joins) under that no_log.
    String init = Files.readString(tasks.resolve("init.yml"));
    assertTrue(init.contains("- --skip-token-print"), init);
    assertTrue(init.contains("- --upload-certs"), init);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> load(Path f) throws Exception {
    return (List<Map<String, Object>>)
        new Load(LoadSettings.builder().build()).loadFromString(Files.readString(f));
  }

  /** Tasks, with those inside blocks lifted out (a block's no_log is not inherited here). */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> flatten(List<Map<String, Object>> tasks) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> t : tasks) {
      if (t.containsKey("block")) {
        out.addAll(flatten((List<Map<String, Object>>) t.get("block")));
      } else {
        out.add(t);
      }
    }
    return out;
  }

  private static List<String> hits(Path dir) throws Exception {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
        for (Pattern p : List.of(TOKEN, CREDENTIAL)) {
          Matcher m = p.matcher(text);
          while (m.find()) {
            out.add(dir.relativize(f) + ": " + m.group());
          }
        }
      }
    }
    return out;
  }
}
