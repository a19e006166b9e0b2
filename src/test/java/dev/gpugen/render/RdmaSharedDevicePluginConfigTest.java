package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stand-in of the RDMA shared device plugin's config reader accepts the plugin's own example
 * and refuses what makes the plugin exit: a string where Go decodes an int, a selector list that is
 * no list, an invalid resource name, neither selectors nor devices; and names a key it ignores.
 */
class RdmaSharedDevicePluginConfigTest {
  /**
   * deployment/k8s/base/configmap.yaml of Mellanox/k8s-rdma-shared-dev-plugin at commit 410b0f3,
   * its config.json.
   */
  private static final String UPSTREAM_EXAMPLE =
      """
      {
          "periodicUpdateInterval": 300,
          "configList": [{
               "resourceName": "hca_shared_devices_a",
               "rdmaHcaMax": 1000,
               "devices": ["ib0", "ib1"]
             },
             {
               "resourceName": "hca_shared_devices_b",
               "rdmaHcaMax": 500,
               "selectors": {
                 "vendors": ["15b3"],
                 "deviceIDs": ["1017"],
                 "ifNames": ["ib3", "ib4"]
               }
             }
          ]
      }
      """;

  @Test
  void theUpstreamExampleStartsThePlugin() {
    assertEquals(List.of(), RdmaSharedDevicePluginConfig.problems(UPSTREAM_EXAMPLE));
  }

  @Test
  void aQuotedIntegerMakesThePluginExit() {
    List<String> p =
        RdmaSharedDevicePluginConfig.problems(
            "{\"periodicUpdateInterval\": 300, \"configList\": [{\"resourceName\":"
                + " \"hca_shared_devices_a\", \"rdmaHcaMax\": \"1000\", \"selectors\":"
                + " {\"vendors\": [\"15b3\"]}}]}");
    assertEquals(
        List.of(
            "json: cannot unmarshal string into configList[].rdmaHcaMax of Go type int (the"
                + " plugin exits: ReadConfig, log.Fatalln)"),
        p);
    assertTrue(
        RdmaSharedDevicePluginConfig.problems(
                "{\"periodicUpdateInterval\": 300.5, \"configList\": [{\"resourceName\": \"a\","
                    + " \"devices\": [\"ib0\"]}]}")
            .get(0)
            .startsWith("json: cannot unmarshal number 300.5 into periodicUpdateInterval"));
  }

  @Test
  void theValidationRulesAndUnknownKeysAreReported() {
    assertEquals(
        List.of(
            "error: resource name \"hca-a\" contains invalid characters",
            "configuration mismatch. Cannot specify both \"selectors\" and \"devices\" fields"),
        RdmaSharedDevicePluginConfig.problems(
            "{\"configList\": [{\"resourceName\": \"hca-a\", \"devices\": [\"ib0\"],"
                + " \"selectors\": {\"vendors\": [\"15b3\"]}}]}"));
    assertEquals(
        List.of(
            "error: configuration missmatch. neither \"selectors\" nor \"devices\" fields exits"),
        RdmaSharedDevicePluginConfig.problems("{\"configList\": [{\"resourceName\": \"a\"}]}"));
    assertEquals(
        List.of(
            "configList[] has the key rdmaHcaMaximum, which the plugin does not read (it ignores"
                + " it)"),
        RdmaSharedDevicePluginConfig.problems(
            "{\"configList\": [{\"resourceName\": \"a\", \"rdmaHcaMaximum\": 9, \"selectors\":"
                + " {\"vendors\": [\"15b3\"]}}]}"));
    // Go matches keys case-insensitively.
    assertEquals(
        List.of(),
        RdmaSharedDevicePluginConfig.problems(
            "{\"ConfigList\": [{\"resourcename\": \"a\", \"selectors\": {\"Vendors\":"
                + " [\"15b3\"]}}]}"));
  }
}
