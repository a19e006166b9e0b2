package dev.gpugen.render;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gpugen.testing.RealTools;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;

/**
 * NVIDIA's CUDA apt repository as a local stand-in: the same flat layout ({@code
 * /compute/cuda/repos/DISTRO/ARCH/} with {@code InRelease}, {@code Release}, {@code Release.gpg},
 * {@code Packages}, {@code Packages.gz} and the .deb files side by side, {@code deb URL /} in
 * sources), served over HTTP on 127.0.0.1. As strict as the real one where the roles could notice:
 * the Release file is signed with a key of the stand-in's own, which only the stand-in's {@code
 * cuda-keyring} package installs (a client without the keyring fails {@code apt-get update}); a
 * package or version that is not in the repository is a 404; and several versions of every driver
 * package sit side by side, as in NVIDIA's repository, which keeps every release of a branch. The
 * packages are empty except for their control data (and the keyring's and pinning package's files).
 */
final class AptRepositoryStandIn implements AutoCloseable {
  /**
   * One package version: its control fields and the files it installs.
   *
   * @param provides the virtual names the package provides (the Provides field), comma-separated;
   *     empty for none
   */
  record Deb(
      String name,
      String version,
      String arch,
      String depends,
      Map<String, String> files,
      String provides) {
    Deb(String name, String version, String arch, String depends, Map<String, String> files) {
      this(name, version, arch, depends, files, "");
    }

    String fileName() {
      return name + "_" + version.replaceFirst("^[0-9]+:", "") + "_" + arch + ".deb";
    }
  }

  private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(2);

  /**
   * A file whose content starts with this is a symbolic link to the rest; one that starts with
   * {@code #!} is an executable script; anything else a plain file.
   */
  static final String SYMLINK = "symlink:";

  private final HttpServer server;
  private final Path docroot;
  private final String path;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<String> misses = new CopyOnWriteArrayList<>();
  private final String keyringFile;
  private final byte[] keyringBytes;
  private final String listFile;

  /**
   * Builds the repository under {@code work} and starts serving it.
   *
   * @param distro e.g. {@code debian12}
   * @param debs every package version the repository holds, besides the keyring package
   */
  AptRepositoryStandIn(Path work, String distro, List<Deb> debs)
      throws IOException, InterruptedException {
    this(work, "/compute/cuda/repos/" + distro + "/x86_64", "cuda-" + distro + "-x86_64", debs);
  }

  /**
   * A mirror of NVIDIA's repository: its cuda-keyring package's sources entry names {@code
   * upstream} (NVIDIA's host, stood in for by an address nothing answers on), as the real package's
   * names developer.download.nvidia.com, not the mirror it was downloaded from.
   */
  AptRepositoryStandIn(Path work, String distro, List<Deb> debs, String upstream)
      throws IOException, InterruptedException {
    this(
        work,
        "/compute/cuda/repos/" + distro + "/x86_64",
        "cuda-" + distro + "-x86_64",
        debs,
        upstream);
  }

  /**
   * A flat repository at {@code path} whose keyring package installs a sources entry named {@code
   * listName}.list; Ubuntu's archive is stood in for the same way (another path, another key).
   */
  AptRepositoryStandIn(Path work, String path, String listName, List<Deb> debs)
      throws IOException, InterruptedException {
    this(work, path, listName, debs, null);
  }

  private AptRepositoryStandIn(
      Path work, String path, String listName, List<Deb> debs, String upstream)
      throws IOException, InterruptedException {
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    this.docroot = work.resolve("www" + path.replace('/', '_'));
    this.path = path;
    Path repo = docroot.resolve(path.substring(1));
    Files.createDirectories(repo);
    Path gnupg = Files.createTempDirectory("gpg");
    try {
      Files.setPosixFilePermissions(
          gnupg, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
      gpg(gnupg, "--quick-gen-key", "gpugen CUDA repository stand-in", "ed25519", "sign", "never");
      boolean cuda = listName.startsWith("cuda-");
      String keyringName = cuda ? "cuda-archive-keyring.gpg" : listName + "-keyring.gpg";
      Path keyring = work.resolve(keyringName);
      gpg(gnupg, "--output", keyring.toString(), "--export");
      // The armored key beside the indexes, where pkgs.k8s.io serves its own (Release.key).
      gpg(gnupg, "--armor", "--output", repo.resolve("Release.key").toString(), "--export");
      this.keyringFile = "usr/share/keyrings/" + keyringName;
      this.keyringBytes = Files.readAllBytes(keyring);
      this.listFile = "etc/apt/sources.list.d/" + listName + ".list";
      List<Deb> all = new ArrayList<>(debs);
      if (cuda) {
        // What NVIDIA's cuda-keyring installs: the archive key and a sources entry that uses it.
        all.add(
            new Deb(
                "cuda-keyring",
                "1.1-1",
                "all",
                "",
                Map.of(
                    keyringFile,
                    new String(keyringBytes, StandardCharsets.ISO_8859_1),
                    listFile,
                    upstream == null
                        ? sourcesEntry()
                        : "deb [signed-by=/" + keyringFile + "] " + upstream + "/ /\n")));
      }
      for (Deb d : all) {
        build(work.resolve("build" + path.replace('/', '_')), repo, d);
      }
      RealTools.Result scan =
          RealTools.run(
              repo,
              TOOL_TIMEOUT,
              Map.of(),
              "sh",
              "-c",
              "dpkg-scanpackages --multiversion . /dev/null > Packages");
      if (scan.exitCode() != 0) {
        throw new IOException("dpkg-scanpackages failed\n" + scan.output());
      }
      String packages = Files.readString(repo.resolve("Packages"));
      try (GZIPOutputStream gz =
          new GZIPOutputStream(Files.newOutputStream(repo.resolve("Packages.gz")))) {
        gz.write(packages.getBytes(StandardCharsets.UTF_8));
      }
      StringBuilder release =
          new StringBuilder(
              "Origin: NVIDIA\nLabel: NVIDIA CUDA\nArchitectures: amd64\n"
                  + "Date: Mon, 01 Dec 2025 00:00:00 UTC\nSHA256:\n");
      for (String f : List.of("Packages", "Packages.gz")) {
        byte[] b = Files.readAllBytes(repo.resolve(f));
        release.append(" ").append(sha256(b)).append(' ').append(b.length).append(' ');
        release.append(f).append('\n');
      }
      Files.writeString(repo.resolve("Release"), release);
      gpg(
          gnupg,
          "--clearsign",
          "--output",
          repo.resolve("InRelease").toString(),
          repo.resolve("Release").toString());
      gpg(
          gnupg,
          "--armor",
          "--detach-sign",
          "--output",
          repo.resolve("Release.gpg").toString(),
          repo.resolve("Release").toString());
    } finally {
      RealTools.run(
          gnupg,
          TOOL_TIMEOUT,
          Map.of(),
          "gpgconf",
          "--homedir",
          gnupg.toString(),
          "--kill",
          "gpg-agent");
      RealTools.run(Path.of("/"), TOOL_TIMEOUT, Map.of(), "rm", "-rf", "--", gnupg.toString());
    }
    server.createContext("/", this::serve);
    server.start();
  }

  /** The repository's URL, as the role's {@code nvidia_driver_repo_url} names it (no final /). */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** The sources entry of the repository: signed by its own key only. */
  String sourcesEntry() {
    return "deb [signed-by=/" + keyringFile + "] " + url() + "/ /\n";
  }

  /**
   * Writes the repository's key and sources entry into {@code root}, as a node image comes with its
   * distribution's archive configured.
   */
  void configure(Path root) throws IOException {
    Files.createDirectories(root.resolve(keyringFile).getParent());
    Files.write(root.resolve(keyringFile), keyringBytes);
    Files.writeString(root.resolve(listFile), sourcesEntry());
    // The root's package lists predate this source: make them as old as an image's, so the
    // apt module's cache_valid_time (which reads the update stamp, else the lists folder's
    // mtime) updates them, however recently the test root was built.
    Files.deleteIfExists(root.resolve("var/lib/apt/periodic/update-success-stamp"));
    Files.setLastModifiedTime(
        root.resolve("var/lib/apt/lists"), java.nio.file.attribute.FileTime.fromMillis(0));
  }

  /** Every path requested, in order. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  /** The requested paths that do not exist (404). */
  List<String> misses() {
    return List.copyOf(misses);
  }

  private void serve(HttpExchange ex) throws IOException {
    try (ex) {
      String p = ex.getRequestURI().getPath();
      requests.add(ex.getRequestMethod() + " " + p);
      Path file = docroot.resolve(p.substring(1)).normalize();
      if (!file.startsWith(docroot)
          || !Files.isRegularFile(file)
          || !List.of("GET", "HEAD").contains(ex.getRequestMethod())) {
        misses.add(p);
        ex.sendResponseHeaders(404, -1);
        return;
      }
      byte[] body = Files.readAllBytes(file);
      ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
      if (ex.getRequestMethod().equals("HEAD")) {
        ex.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
        ex.sendResponseHeaders(200, -1);
        return;
      }
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static void build(Path work, Path repo, Deb d) throws IOException, InterruptedException {
    Path dir = work.resolve(d.name() + "_" + d.version().replace(':', '_'));
    Files.createDirectories(dir.resolve("DEBIAN"));
    Files.writeString(
        dir.resolve("DEBIAN/control"),
        "Package: "
            + d.name()
            + "\nVersion: "
            + d.version()
            + "\nArchitecture: "
            + d.arch()
            + "\nMaintainer: gpugen tests <tests@gpugen.invalid>\n"
            + (d.depends().isEmpty() ? "" : "Depends: " + d.depends() + "\n")
            + (d.provides().isEmpty() ? "" : "Provides: " + d.provides() + "\n")
            + "Description: stand-in for NVIDIA's "
            + d.name()
            + "\n");
    for (Map.Entry<String, String> f : d.files().entrySet()) {
      Path target = dir.resolve(f.getKey());
      Files.createDirectories(target.getParent());
      if (f.getValue().startsWith(SYMLINK)) {
        Files.createSymbolicLink(target, Path.of(f.getValue().substring(SYMLINK.length())));
      } else if (f.getValue().startsWith("#!")) {
        Files.writeString(target, f.getValue());
        Files.setPosixFilePermissions(
            target, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      } else {
        Files.write(target, f.getValue().getBytes(StandardCharsets.ISO_8859_1));
      }
    }
    RealTools.Result r =
        RealTools.run(
            work,
            TOOL_TIMEOUT,
            Map.of(),
            "dpkg-deb",
            "--root-owner-group",
            "--build",
            dir.toString(),
            repo.resolve(d.fileName()).toString());
    if (r.exitCode() != 0) {
      throw new IOException("dpkg-deb --build " + d.fileName() + " failed\n" + r.output());
    }
  }

  private static void gpg(Path home, String... args) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "gpg",
                "--homedir",
                home.toString(),
                "--batch",
                "--pinentry-mode",
                "loopback",
                "--passphrase",
                ""));
    cmd.addAll(List.of(args));
    RealTools.Result r = RealTools.run(home, TOOL_TIMEOUT, Map.of(), cmd.toArray(String[]::new));
    if (r.exitCode() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed\n" + r.output());
    }
  }

  private static String sha256(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
