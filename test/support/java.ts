/**
 * Java programs on Debian's jars: Apache Curator 5 (libcurator-*-java, on ZooKeeper's Java client
 * 3.8) as the dev server's external client (test/dev-server/curator.test.ts) and as the
 * benchmark's peer (bench/curator-peer.ts), both compiled with javac where they run.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const JAVAC = process.env.JAVA_HOME ? `${process.env.JAVA_HOME}/bin/javac` : 'javac';
export const JAVA = process.env.JAVA_HOME ? `${process.env.JAVA_HOME}/bin/java` : 'java';

/** The jars of /usr/share/java whose names start with one of `prefixes` (unversioned names, one of each). */
export function javaJars(prefixes: readonly string[]): string[] {
  const dir = '/usr/share/java';
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jar') && !/-\d/.test(name) && prefixes.some((prefix) => name.startsWith(prefix)))
    .map((name) => path.join(dir, name));
}

/** Curator and what it needs at run time: ZooKeeper's client, jute, SLF4J (silenced), Guava, Netty (the client's classes reference it). */
export const CURATOR_JARS = javaJars(['curator-client', 'curator-framework', 'curator-recipes', 'zookeeper.jar', 'zookeeper-jute', 'slf4j-api', 'slf4j-nop', 'guava', 'netty-']);

/** Why a Curator program cannot be compiled and run here, or undefined when it can. */
export const CURATOR_MISSING: string | undefined = !CURATOR_JARS.some((jar) => jar.includes('curator-recipes'))
  ? 'Curator is not installed (apt-get install libcurator-framework-java libcurator-recipes-java libcurator-client-java)'
  : !existsSync('/usr/bin/javac') && !process.env.JAVA_HOME
    ? 'no javac (a JDK) to compile the Curator program (apt-get install default-jdk-headless)'
    : undefined;
