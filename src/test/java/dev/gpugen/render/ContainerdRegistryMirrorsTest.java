package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mirrors.registries: the air-gapped golden's group_vars give containerd one hosts.toml per
 * registry, which TOML reads back as containerd's docs/hosts.md describes it (server, a host with
 * pull and resolve, override_path for a URL whose path is the API root); the config_path script
 * sets the CRI registry's config_path in config versions 2 and 3, keeping the rest of the file,
 * once.
 */
@RealToolsTest
class ContainerdRegistryMirrorsTest {
  private static final Path ROLE = Path.of("templates/ansible/roles/container_runtime");

  @TempDir Path tmp;

  private RealTools.Result python(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("python3"));
    cmd.addAll(List.of(args));
    return RealTools.run(tmp, Duration.ofMinutes(1), Map.of(), cmd.toArray(String[]::new));
  }

  private RealTools.Result configPath(Path config) throws Exception {
    return python(
        RealTools.repoRoot()
            .resolve(ROLE.resolve("files/containerd-registry-config-path.py"))
            .toString(),
        config.toString(),
        "/etc/containerd/certs.d");
  }

  @Test
  void eachRegistryGetsAHostsTomlContainerdReads() throws Exception {
    Path dir = RenderedCase.render("aws-airgapped", tmp.resolve("r")).ansible();
    String vars = Files.readString(dir.resolve("group_vars/all.yml"));
    assertTrue(vars.contains("container_runtime_registry_mirrors:"), vars);
    // Render the role's template for every entry with Jinja, as Ansible does, and read it as TOML.
    Path script =
        Files.writeString(
            tmp.resolve("hosts.py"),
            String.join(
                "\n",
                "import json, sys, tomllib, yaml, jinja2",
                "class L(yaml.SafeLoader): pass",
                "L.add_constructor('!unsafe', lambda l, n: l.construct_scalar(n))",
                "vars = yaml.load(open(sys.argv[1]), Loader=L)",
                "env = jinja2.Environment()",
                "# Ansible's bool filter, for the template's override_path.",
                "env.filters['bool'] = lambda v: v is True or str(v).lower() in ('true', 'yes', '1')",
                "t = env.from_string(open(sys.argv[2]).read())",
                "out = {}",
                "for item in vars['container_runtime_registry_mirrors']:",
                "    out[item['registry']] = tomllib.loads(t.render(item=item))",
                "print(json.dumps(out, sort_keys=True))",
                ""));
    RealTools.Result r =
        python(
            script.toString(),
            dir.resolve("group_vars/all.yml").toString(),
            dir.resolve("roles/container_runtime/templates/hosts.toml.j2").toString());
    r.assertOk();
    String json = r.output().strip();
    assertEquals(
        "{\"602401143452.dkr.ecr.us-west-2.amazonaws.com\": {\"host\":"
            + " {\"https://harbor.vault.example.com/v2/ecr-usw2-proxy\": {\"capabilities\":"
            + " [\"pull\", \"resolve\"], \"override_path\": true}}, \"server\":"
            + " \"https://602401143452.dkr.ecr.us-west-2.amazonaws.com\"}, \"nvcr.io\": {\"host\":"
            + " {\"https://harbor.vault.example.com/v2/nvcr-proxy\": {\"capabilities\": [\"pull\","
            + " \"resolve\"], \"override_path\": true}}, \"server\": \"https://nvcr.io\"},"
            + " \"registry.k8s.io\": {\"host\": {\"https://harbor.vault.example.com/v2/k8s-proxy\":"
            + " {\"capabilities\": [\"pull\", \"resolve\"], \"override_path\": true}}, \"server\":"
            + " \"https://registry.k8s.io\"}}",
        json);
  }

  @Test
  void configPathIsSetOnceInEitherConfigVersionAndNothingElseChanges() throws Exception {
    // No file yet (containerd 1.7's defaults): a version 2 file with the setting.
    Path fresh = tmp.resolve("fresh/config.toml");
    RealTools.Result first = configPath(fresh);
    first.assertOk();
    assertEquals(List.of("changed"), first.output().lines().toList());
    assertEquals(
        "version = 2\n\n[plugins.\"io.containerd.grpc.v1.cri\".registry]\n"
            + "  config_path = \"/etc/containerd/certs.d\"\n",
        Files.readString(fresh));
    RealTools.Result again = configPath(fresh);
    again.assertOk();
    assertEquals("", again.output().strip(), "a second run changes nothing");

    // Version 2 with the table and an empty config_path (containerd config default's form).
    Path v2 = tmp.resolve("v2.toml");
    String before =
        "version = 2\n\n[plugins.\"io.containerd.grpc.v1.cri\".registry]\n"
            + "  config_path = \"\"\n\n[plugins.\"io.containerd.grpc.v1.cri\".containerd]\n"
            + "  default_runtime_name = \"nvidia\"\n";
    Files.writeString(v2, before);
    configPath(v2).assertOk();
    assertEquals(
        before.replace("config_path = \"\"", "config_path = \"/etc/containerd/certs.d\""),
        Files.readString(v2));

    // Version 3 (containerd 2.x): the images plugin's registry table.
    Path v3 = tmp.resolve("v3.toml");
    Files.writeString(v3, "version = 3\n");
    configPath(v3).assertOk();
    assertEquals(
        "version = 3\n\n[plugins.\"io.containerd.cri.v1.images\".registry]\n"
            + "  config_path = \"/etc/containerd/certs.d\"\n",
        Files.readString(v3));

    // A version 1 file is refused, not rewritten.
    Path v1 = tmp.resolve("v1.toml");
    Files.writeString(v1, "[plugins.cri]\n");
    assertTrue(configPath(v1).exitCode() != 0);
    assertEquals("[plugins.cri]\n", Files.readString(v1));
  }
}
