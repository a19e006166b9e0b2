package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * What each play needs from the one before it, in the order site.yml runs them: the EFA device
 * plugin after the EFA installer whose devices it lists when it starts; on kubeadm, every node
 * Ready (play 02b's last play) before play 03's pre-flight and chart install.
 */
class KubernetesPlayOrderTest {
  /** One play of the site, in run order: its playbook, name, and what its tasks and roles use. */
  record Play(String playbook, String name, String uses) {}

  @SuppressWarnings("unchecked")
  static List<Play> site(RenderedTree tree) {
    Load yaml = new Load(LoadSettings.builder().build());
    List<Play> out = new ArrayList<>();
    for (Object imp : (List<Object>) yaml.loadFromString(text(tree, "ansible/site.yml"))) {
      String playbook = (String) ((Map<String, Object>) imp).get("ansible.builtin.import_playbook");
      for (Object p : (List<Object>) yaml.loadFromString(text(tree, "ansible/" + playbook))) {
        Map<String, Object> play = (Map<String, Object>) p;
        out.add(new Play(playbook, (String) play.get("name"), String.valueOf(play)));
      }
    }
    return out;
  }

  private static String text(RenderedTree tree, String file) {
    return new String(tree.files().get(file).content(), StandardCharsets.UTF_8);
  }

  private static int index(List<Play> plays, String uses) {
    for (int i = 0; i < plays.size(); i++) {
      if (plays.get(i).uses().contains(uses)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The EFA device plugin lists the host's EFA devices when it starts: installed before the EFA
   * installer, it advertises no vpc.amazonaws.com/efa and Helm's wait fails.
   */
  @Test
  void theEfaDevicePluginIsInstalledAfterTheEfaInstaller() throws Exception {
    for (Path spec :
        List.of(
            Path.of("examples/aws-h100/cluster.yaml"),
            SchedulingTest.golden("aws-kubeadm"),
            SchedulingTest.golden("two-pool"))) {
      RenderedTree tree = SchedulingTest.read(spec);
      List<Play> plays = site(tree);
      int installer = index(plays, "role=nccl_network");
      int plugin = index(plays, "tasks_from=efa_device_plugin");
      assertTrue(installer >= 0 && plugin > installer, spec + ": " + plays);
      for (String operator :
          List.of("ansible/roles/gpu_operator/tasks/main.yml", "ansible/03-gpu-operator.yml")) {
        assertFalse(
            text(tree, operator).contains("aws-efa-k8s-device-plugin"),
            operator + " installs the EFA device plugin before play 04");
      }
      assertTrue(
          text(tree, "ansible/roles/nccl_network/tasks/main.yml").contains("efa_installer.sh"));
    }
  }

  /**
   * kubeadm: the CNI is installed without waiting and the joins do not wait; play 02b's last play
   * waits for every node to be Ready, before play 03's pre-flight lists them.
   */
  @Test
  void onKubeadmEveryNodeIsWaitedForBeforePlay03() throws Exception {
    for (String golden : List.of("aws-kubeadm", "static-kubeadm", "static-kubeadm-ha")) {
      List<Play> plays = site(SchedulingTest.read(SchedulingTest.golden(golden)));
      int joins = index(plays, "tasks_from=join");
      int wait = index(plays, "tasks_from=wait_ready");
      int preflight = index(plays, "tasks_from=preflight");
      assertTrue(joins >= 0 && wait > joins && preflight > wait, golden + ": " + plays);
      Play w = plays.get(wait);
      assertEquals("02b-kubernetes.yml", w.playbook());
      assertTrue(w.uses().contains("hosts=kube_control_plane:gpu_nodes"), w.uses());
    }
  }
}
