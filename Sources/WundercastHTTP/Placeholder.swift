import WundercastCore
import CCurl
