package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 04's GDRCopy install for real, in a Debian 12 root through the chroot connection, with the
 * network steps selected (tag gdrcopy): the build dependencies come from a stand-in apt archive on
 * 127.0.0.1, the release tarball from a stand-in of GitHub's archive URL on 127.0.0.1 (URL and
 * checksum given with -e), and its packages/build-deb-packages.sh is a stand-in that builds the
 * four packages empty, named as GDRCopy's script names them. Without the CUDA toolkit the play
 * refuses to build; a tarball that does not match the checksum is never built; the pinned one is
 * built once, installed in AWS's order, and a second run changes nothing and downloads nothing.
 */
@ChrootTest
class GdrcopyInstallTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
  private static final String ARCHIVE = "/NVIDIA/gdrcopy/archive/v2.5.1.tar.gz";
  private static final List<String> PACKAGES =
      List.of("gdrdrv-dkms", "libgdrapi", "gdrcopy-tests", "gdrcopy");

  /** What the build dependencies' stand-ins are: empty packages of the names the role installs. */
  private static final List<String> BUILD_PACKAGES =
      List.of(
          "build-essential",
          "devscripts",
          "debhelper",
          "check",
          "libsubunit-dev",
          "fakeroot",
          "pkg-config",
          "dkms");

  /**
   * GDRCopy's build-deb-packages.sh in miniature: needs CUDA (as the real one does for the tests
   * package), records each build, and leaves the four .deb files in the current folder. Debian
   * versions as the real script makes them from gdrapi.h's major and minor version (2.5-1).
   */
  private static final String BUILD_SCRIPT =
      """
      #!/bin/bash
      # Stand-in for GDRCopy's packages/build-deb-packages.sh (gpugen tests).
      set -euo pipefail
      if [ ! -f "${CUDA:-}/include/cuda.h" ]; then echo "CUDA environment variable is not defined"; exit 1; fi
      echo "$CUDA" >> /var/tmp/gdrcopy-stand-in-builds
      v=2.5-1
      tmp=$(mktemp -d)
      mk() {
        mkdir -p "$tmp/$1/DEBIAN"
        printf 'Package: %s\\nVersion: %s\\nArchitecture: amd64\\nMaintainer: gpugen tests <tests@gpugen.invalid>\\n%bDescription: stand-in for GDRCopy\\n' "$1" "$v" "$3" > "$tmp/$1/DEBIAN/control"
        dpkg-deb --root-owner-group --build "$tmp/$1" "$2" > /dev/null
      }
      mk gdrdrv-dkms "gdrdrv-dkms_${v}_amd64.Debian12.deb" ""
      mk libgdrapi "libgdrapi_${v}_amd64.Debian12.deb" ""
      mk gdrcopy-tests "gdrcopy-tests_${v}_amd64.Debian12+cuda12.8.deb" "Depends: libgdrapi (>= 2.5)\\n"
      mk gdrcopy "gdrcopy_${v}_amd64.Debian12.deb" "Depends: gdrdrv-dkms (= $v), libgdrapi (= $v), gdrcopy-tests (= $v)\\n"
      rm -rf "$tmp"
      """;

  @TempDir Path tmp;

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void gdrcopyIsBuiltOnceFromThePinnedTarballAndInstalledInAwsOrder() throws Exception {
    byte[] tarball = tarball();
    String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(tarball));
    List<String> requests = new CopyOnWriteArrayList<>();
    HttpServer github =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    github.createContext(
        "/",
        ex -> {
          try (ex) {
            requests.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
            if (!ex.getRequestURI().getPath().equals(ARCHIVE)) {
              ex.sendResponseHeaders(404, -1);
              return;
            }
            ex.sendResponseHeaders(200, tarball.length);
            try (OutputStream out = ex.getResponseBody()) {
              out.write(tarball);
            }
          }
        });
    github.start();
    String url = "http://127.0.0.1:" + github.getAddress().getPort() + ARCHIVE;

    List<AptRepositoryStandIn.Deb> debs = new ArrayList<>();
    for (String name : BUILD_PACKAGES) {
      debs.add(new AptRepositoryStandIn.Deb(name, "1.0-1", "amd64", "", Map.of()));
    }
    Path dir = RenderedCase.render("reference", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try (AptRepositoryStandIn archive =
        new AptRepositoryStandIn(tmp, "/debian", "debian-archive", debs)) {
      Files.writeString(root.resolve("etc/apt/sources.list"), "");
      archive.configure(root);
      Path builds = root.resolve("var/tmp/gdrcopy-stand-in-builds");

      // No CUDA toolkit (play 01 did not run): refused before anything is downloaded.
      RealTools.Result noCuda = play(dir, root, url, sha256);
      assertNotEquals(0, noCuda.exitCode(), noCuda.output());
      assertTrue(
          noCuda.output().contains("/usr/local/cuda-12.8/include/cuda.h is missing"),
          noCuda.output());
      assertEquals(List.of(), requests);

      Path cudaH = root.resolve("usr/local/cuda-12.8/include/cuda.h");
      Files.createDirectories(cudaH.getParent());
      Files.writeString(cudaH, "/* stand-in */\n");

      // A tarball that is not the pinned one is downloaded but never unpacked or built.
      RealTools.Result wrong = play(dir, root, url, "0".repeat(64));
      assertNotEquals(0, wrong.exitCode(), wrong.output());
      assertTrue(wrong.output().contains("did not match"), wrong.output());
      assertFalse(Files.exists(builds), "built from a tarball that failed its checksum");
      assertTrue(installed(root).keySet().stream().noneMatch(PACKAGES::contains));

      Map<String, Integer> first = recap(play(dir, root, url, sha256), "first run");
      assertEquals(0, first.get("failed"), first::toString);
      assertTrue(first.get("changed") > 0, first::toString);
      assertEquals(List.of("/usr/local/cuda-12.8"), Files.readAllLines(builds));
      Map<String, String> installed = installed(root);
      for (String p : PACKAGES) {
        assertEquals("2.5-1", installed.get(p), p + ": " + installed);
      }
      for (String p : BUILD_PACKAGES) {
        assertTrue(installed.containsKey(p), p + ": " + installed);
      }
      // dpkg's log: installed one by one in the order of AWS's guide.
      List<String> log = Files.readAllLines(root.resolve("var/log/dpkg.log"));
      List<Integer> order = new ArrayList<>();
      for (String p : PACKAGES) {
        order.add(indexOf(log, " install " + p + ":amd64 "));
      }
      assertTrue(
          order.get(0) >= 0
              && order.get(0) < order.get(1)
              && order.get(1) < order.get(2)
              && order.get(2) < order.get(3),
          String.join("\n", log));
      assertTrue(
          Files.exists(root.resolve("var/cache/gpugen/gdrcopy/2.5.1/installed")), "the marker");

      int downloads = requests.size();
      Map<String, Integer> second = recap(play(dir, root, url, sha256), "second run");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);
      assertEquals(downloads, requests.size(), "the second run downloaded: " + requests);
      assertEquals(1, Files.readAllLines(builds).size(), "the second run built again");

      // A package removed by hand: the next run builds and installs the release again.
      RealTools.run(
              Path.of("/"),
              Duration.ofMinutes(2),
              Map.of(),
              List.of("chroot", root.toString(), "dpkg", "-r", "gdrcopy"))
          .assertOk();
      assertFalse(installed(root).containsKey("gdrcopy"));
      Map<String, Integer> repair = recap(play(dir, root, url, sha256), "repair run");
      assertEquals(0, repair.get("failed"), repair::toString);
      assertTrue(repair.get("changed") > 0, repair::toString);
      assertEquals("2.5-1", installed(root).get("gdrcopy"));
      assertEquals(2, Files.readAllLines(builds).size());
      assertEquals(List.of(), archive.misses(), archive.requests()::toString);
    } finally {
      github.stop(0);
      TestRoot.delete(root);
    }
  }

  /** A GDRCopy release tarball in miniature: gdrcopy-2.5.1/packages/build-deb-packages.sh. */
  private byte[] tarball() throws Exception {
    Path src = tmp.resolve("src");
    Path script = src.resolve("gdrcopy-2.5.1/packages/build-deb-packages.sh");
    Files.createDirectories(script.getParent());
    Files.writeString(script, BUILD_SCRIPT);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path out = tmp.resolve("v2.5.1.tar.gz");
    RealTools.run(
            src,
            Duration.ofMinutes(1),
            Map.of(),
            "tar",
            "--owner=0",
            "--group=0",
            "-czf",
            out.toString(),
            "gdrcopy-2.5.1")
        .assertOk();
    return Files.readAllBytes(out);
  }

  /** Play 04's GDRCopy steps alone on one chroot host of pool h100 (the reference's EFA pool). */
  private RealTools.Result play(Path dir, Path root, String url, String sha256) throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("inventory.yml"), RealTools.chrootInventory(root, "pool_h100"));
    List<String> cmd =
        List.of(
            "ansible-playbook",
            "-i",
            inventory.toString(),
            "--tags",
            "gdrcopy",
            "-e",
            "nccl_network_gdrcopy_url=" + url,
            "-e",
            "nccl_network_gdrcopy_sha256=" + sha256,
            "04-network-tuning.yml");
    long start = System.nanoTime();
    RealTools.Result r = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
    System.out.printf(
        "chroot gdrcopy: %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    return r;
  }

  private static Map<String, Integer> recap(RealTools.Result r, String which) {
    RenderedCase.assertExit(0, r);
    Map<String, Integer> counts = RealTools.recap(r.output(), "testhost");
    System.out.println(which + ": " + counts);
    return counts;
  }

  private static int indexOf(List<String> lines, String needle) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(needle)) {
        return i;
      }
    }
    return -1;
  }

  /** Installed packages and their versions, from dpkg's status file. */
  private static Map<String, String> installed(Path root) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (String stanza : Files.readString(root.resolve("var/lib/dpkg/status")).split("\n\n")) {
      String name = "";
      String version = "";
      boolean ok = false;
      for (String line : stanza.split("\n")) {
        if (line.startsWith("Package: ")) {
          name = line.substring(9);
        } else if (line.startsWith("Version: ")) {
          version = line.substring(9);
        } else if (line.startsWith("Status: ")) {
          ok = line.endsWith(" installed");
        }
      }
      if (ok) {
        out.put(name, version);
      }
    }
    return out;
  }
}
