package demo

import "github.com/go-zookeeper/zk"

const flagEphemeralSequential = zk.FlagEphemeral | zk.FlagSequence

var openACL = zk.WorldACL(zk.PermAll)
