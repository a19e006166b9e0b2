package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Calico's node address on a GPU host with EFA or InfiniBand interfaces: the one kubelet
 * registered, not the first interface Calico finds (its default, firstFound), which may be an RDMA
 * interface's (https://docs.tigera.io/calico/latest/networking/ipam/ip-autodetection).
 */
class CalicoAddressTest {
  @TempDir Path tmp;

  @Test
  @SuppressWarnings("unchecked")
  void calicoTakesTheNodesInternalIpNotTheFirstInterfaceFound() throws Exception {
    Path ansible = RenderedCase.render("aws-kubeadm", tmp.resolve("r")).ansible();
    assertTrue(Files.readString(ansible.resolve("group_vars/all.yml")).contains("calico"));
    Map<String, Object> defaults =
        (Map<String, Object>)
            new Load(LoadSettings.builder().build())
                .loadFromString(
                    Files.readString(ansible.resolve("roles/kubeadm/defaults/main.yml")));
    Map<String, Object> calico =
        (Map<String, Object>)
            ((Map<String, Object>) defaults.get("kubeadm_cni_charts")).get("calico");
    Map<String, Object> network =
        (Map<String, Object>)
            ((Map<String, Object>) ((Map<String, Object>) calico.get("values")).get("installation"))
                .get("calicoNetwork");
    // The operator takes at most one method (tigera/operator api/v1/installation_types.go).
    assertEquals(
        Map.of("kubernetes", "NodeInternalIP"),
        network.get("nodeAddressAutodetectionV4"),
        network.toString());
  }
}
