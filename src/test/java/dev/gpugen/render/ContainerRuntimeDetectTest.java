package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 02 on a node of an existing cluster (the two-pool golden, {@code distribution: existing}),
 * for real in a Debian 12 root through the chroot connection: the container runtime the node
 * already runs decides what the play does. Docker's containerd.io is kept and configured, not
 * replaced by Ubuntu's containerd (which conflicts with it); containerd.io with its CRI plugin
 * disabled, RKE2 and k3s are refused with the reason before anything is installed. Tags network and
 * hardware are skipped (no repository, no systemd in a chroot).
 */
@ChrootTest
class ContainerRuntimeDetectTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(6);

  /** dpkg's record of Docker's package, as `dpkg -s containerd.io` shows it on an Ubuntu node. */
  private static final String CONTAINERD_IO =
      "Package: containerd.io\n"
          + "Status: install ok installed\n"
          + "Priority: optional\n"
          + "Section: devel\n"
          + "Installed-Size: 120000\n"
          + "Maintainer: Containerd team <help@containerd.io>\n"
          + "Architecture: amd64\n"
          + "Version: 1.7.27-1\n"
          + "Provides: containerd, runc\n"
          + "Conflicts: containerd, runc\n"
          + "Description: An open and reliable container runtime\n";

  @TempDir Path tmp;
  private Path dir;
  private Path root;

  @BeforeEach
  void setUp() throws Exception {
    dir = RenderedCase.render("two-pool", tmp.resolve("render")).ansible();
    root = TestRoot.fresh(tmp.resolve("root"));
  }

  @AfterEach
  void tearDown() throws Exception {
    TestRoot.delete(root);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void dockersContainerdIsKeptAndConfigured() throws Exception {
    installed(CONTAINERD_IO);
    config("version = 2\n");
    RealTools.Result r = play();
    RenderedCase.assertExit(0, r);
    assertTrue(r.output().contains("container_runtime_detected\": \"containerd.io\""), r.output());
    String status = Files.readString(root.resolve("var/lib/dpkg/status"));
    assertFalse(status.contains("\nPackage: containerd\n"), "Ubuntu's containerd was installed");
    assertTrue(status.contains("Package: containerd.io\nStatus: install ok installed"), status);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void dockersContainerdWithoutCriIsRefused() throws Exception {
    installed(CONTAINERD_IO);
    config("#   Copyright 2018-2022 Docker Inc.\n\ndisabled_plugins = [\"cri\"]\n");
    RealTools.Result r = play();
    assertNotEquals(0, r.exitCode(), r.output());
    assertTrue(
        flat(r)
            .contains(
                "testhost runs Docker's containerd.io with the CRI plugin disabled in"
                    + " /etc/containerd/config.toml"),
        r.output());
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void rke2AndK3sAreRefusedBeforeAnythingIsInstalled() throws Exception {
    for (String[] c :
        List.of(
            new String[] {
              "usr/local/bin/rke2",
              "testhost runs rke2, whose containerd configuration"
                  + " gpugen does not write: RKE2 generates its containerd's config.toml"
            },
            new String[] {
              "etc/rancher/k3s",
              "testhost runs k3s, whose containerd configuration"
                  + " gpugen does not write: k3s generates its containerd's config.toml"
            })) {
      Path marker = root.resolve(c[0]);
      Files.createDirectories(marker.getParent());
      if (c[0].startsWith("etc")) {
        Files.createDirectories(marker);
      } else {
        Files.writeString(marker, "#!/bin/sh\n");
      }
      RealTools.Result r = play();
      assertNotEquals(0, r.exitCode(), r.output());
      assertTrue(flat(r).contains(c[1]), r.output());
      assertFalse(
          Files.exists(root.resolve("etc/apt/preferences.d/gpugen-nvidia-container-toolkit.pref")),
          "the play went on after refusing");
      Files.walk(marker)
          .sorted(java.util.Comparator.reverseOrder())
          .forEach(p -> p.toFile().delete());
    }
  }

  private void installed(String stanza) throws Exception {
    Path status = root.resolve("var/lib/dpkg/status");
    Files.writeString(status, Files.readString(status).stripTrailing() + "\n\n" + stanza);
  }

  private void config(String toml) throws Exception {
    Path etc = Files.createDirectories(root.resolve("etc/containerd"));
    Files.writeString(etc.resolve("config.toml"), toml);
  }

  private RealTools.Result play() throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("inventory.yml"), RealTools.chrootInventory(root, "pool_a100"));
    return RealTools.run(
        dir,
        RUN_TIMEOUT,
        RealTools.YAML_INVENTORY,
        List.of(
            "ansible-playbook",
            "-v",
            "-i",
            inventory.toString(),
            "--skip-tags",
            "network,hardware",
            "02-container-runtime.yml"));
  }

  private static String flat(RealTools.Result r) {
    return r.output().replaceAll("\\s+", " ");
  }
}
